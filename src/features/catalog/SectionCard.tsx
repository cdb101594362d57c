import { Anchor, Card } from '@mantine/core';
import { Link } from 'wouter';
import type { SectionRef } from '../../api/types';

/** A section in a grid or carousel: its image and name, linking to the section. */
export function SectionCard({ section }: { section: SectionRef }) {
  return (
    <Card withBorder maw={300} w="100%" padding="sm">
      <Anchor component={Link} href={`/section/${section.id}`}>
        {section.name}
      </Anchor>
    </Card>
  );
}
