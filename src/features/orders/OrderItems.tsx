import '@mantine/core/styles/Table.css';
import { Anchor, Table } from '@mantine/core';
import { Link } from 'wouter';
import type { OrderItem } from '../../api/types';
import { formatAmount, isPieceUnit, lineSum } from '../../lib/amount';
import { formatRub } from '../../lib/money';
import { paths } from '../../lib/paths';

function quantity({ amount, product }: OrderItem): string {
  // Past orders may hold steps the catalogue no longer uses: show every decimal they have.
  return `${formatAmount(amount, isPieceUnit(product.unit) ? 0 : 3)} ${product.unit}`;
}

/** An order's lines: product (a link), quantity with unit, sum. */
export function OrderItems({ items }: { items: readonly OrderItem[] }) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Товар</Table.Th>
            <Table.Th ta="end">Количество</Table.Th>
            <Table.Th ta="end">Сумма</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Anchor component={Link} href={paths.product(item.product.id)}>
                  {item.product.name}
                </Anchor>
              </Table.Td>
              <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                {quantity(item)}
              </Table.Td>
              <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                {formatRub(lineSum(item.amount, item.price))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
