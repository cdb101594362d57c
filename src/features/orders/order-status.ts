import type { OrderStatus } from '../../api/types';

// Order statuses (spec §4): the server moves them; the app only names and colours them.
export const STATUS_LABELS: Record<OrderStatus, string> = {
  0: 'Создан',
  1: 'В работе',
  2: 'Подтвержден',
  3: 'Выполнен',
  4: 'Отменен',
  5: 'Не актуально',
};

/** 0–2 the primary colour, 3 green, 4–5 red. `undefined` means the theme's primary colour. */
export function statusColor(status: number): 'green' | 'red' | undefined {
  if (status === 3) return 'green';
  if (status === 4 || status === 5) return 'red';
  return undefined;
}

/** An unknown status from a newer backend still shows something readable. */
export function statusLabel(status: number): string {
  return STATUS_LABELS[status as OrderStatus] ?? `Статус ${status}`;
}

/**
 * The badge colour of a status. Mantine's filled green and red carry white text below WCAG AA
 * (2.4:1 and 3.3:1), so darker shades stand in: #277d3a gives 5.2:1, red.9 5.5:1.
 */
export function statusBadgeColor(status: number): string | undefined {
  const color = statusColor(status);
  if (color === 'green') return '#277d3a';
  if (color === 'red') return 'red.9';
  return undefined;
}
