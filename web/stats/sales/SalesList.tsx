import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconChevronLeft, IconChevronRight, IconPencil, IconTrash } from '@tabler/icons-react';
import { modals } from '@mantine/modals';
import { formatCents } from '../../../domain/commission';
import { formatDay } from '../../../domain/format';
import { useCompact } from '../../components/useCompact';
import { SaleForm } from './SaleForm';
import { useDeleteSale, type Sale } from './api';

const asText = (cents: number) => {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

const PAGE_SIZE = 25;
type SortKey = 'date' | 'frontGrossCents' | 'commissionCents';
type Sort = { key: SortKey; desc: boolean };

/** Sorted by the chosen column; equal values keep the newest entry first. */
function sorted(sales: Sale[], { key, desc }: Sort): Sale[] {
  return [...sales].sort((a, b) => {
    const d = a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : b.id - a.id;
    return a[key] === b[key] ? d : desc ? -d : d;
  });
}

function SortHeader({ label, k, sort, onSort }: { label: string; k: SortKey; sort: Sort; onSort: (k: SortKey) => void }) {
  const on = sort.key === k;
  const Icon = !on ? IconArrowsSort : sort.desc ? IconArrowDown : IconArrowUp;
  return (
    <Table.Th aria-sort={on ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton onClick={() => onSort(k)} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700, fontSize: 'inherit' }}>
        {label}
        <Icon size={14} aria-hidden style={{ opacity: on ? 1 : 0.5 }} />
      </UnstyledButton>
    </Table.Th>
  );
}

/** `store`: the sale's store, shown when the list holds sales of several stores ("All my stores"). */
export function SalesList({ sales, today }: { sales: (Sale & { store?: string })[]; today: string }) {
  // What the server lets this reader do to each sale (can): his own, never another's.
  const changeable = sales.some((s) => s.can.edit || s.can.delete);
  const storeOf = (s: Sale): string | undefined => (s as Sale & { store?: string }).store;
  const withStore = sales.some((s) => s.store !== undefined);
  const compact = useCompact();
  const [sort, setSort] = useState<Sort>({ key: 'date', desc: true });
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Sale | null>(null);
  const [returnTo, setReturnTo] = useState<string | null>(null);
  const rows = useMemo(() => sorted(sales, sort), [sales, sort]);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const onSort = (key: SortKey) => {
    setSort((s) => (s.key === key ? { key, desc: !s.desc } : { key, desc: true }));
    setPage(1);
  };
  // Back to the row's Edit button, even if a live refresh drew the list anew meanwhile.
  const closeEdit = () => {
    if (editing) setReturnTo(`edit-sale-${editing.id}`);
    setEditing(null);
  };
  const del = useDeleteSale();
  const confirmDelete = (s: Sale) =>
    modals.openConfirmModal({
      title: 'Delete sale',
      children: (
        <Text size="sm">
          Delete the sale of {formatDay(s.date)} with front gross {formatCents(s.frontGrossCents)}? This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red.8' },
      onConfirm: () => del.mutate(s.id),
    });

  const what = (s: Sale) => `sale of ${formatDay(s.date)}, ${formatCents(s.frontGrossCents)}`;
  const vehicle = (s: Sale) => (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color={s.vehicleType === 'new' ? 'blue' : 'grape'} style={{ flexShrink: 0 }}>
        {s.vehicleType === 'new' ? 'New' : 'Used'}
      </Badge>
      {s.customer && (
        <Text size="sm" data-testid="sale-customer" style={{ overflowWrap: 'anywhere' }}>
          {s.customer}
        </Text>
      )}
    </Group>
  );
  // Words on a phone's card, icons in the table's narrow column; the accessible name says which sale either way.
  const actions = (s: Sale, icons = false) =>
    (s.can.edit || s.can.delete) &&
    (icons ? (
      <Group gap={6} wrap="nowrap">
        {s.can.edit && (
          <ActionIcon id={`edit-sale-${s.id}`} variant="subtle" size="lg" aria-label={`Edit ${what(s)}`} title="Edit" onClick={() => setEditing(s)}>
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        )}
        {s.can.delete && (
          <ActionIcon variant="light" color="red" size="lg" aria-label={`Delete ${what(s)}`} title="Delete" onClick={() => confirmDelete(s)}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        )}
      </Group>
    ) : (
      <Group gap={4} wrap="nowrap">
        {s.can.edit && (
          <Button
            id={`edit-sale-${s.id}`}
            size="compact-sm"
            variant="subtle"
            leftSection={<IconPencil size={14} aria-hidden />}
            aria-label={`Edit ${what(s)}`}
            onClick={() => setEditing(s)}
          >
            Edit
          </Button>
        )}
        {s.can.delete && (
          <Button
            size="compact-sm"
            variant="light"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            aria-label={`Delete ${what(s)}`}
            onClick={() => confirmDelete(s)}
          >
            Delete
          </Button>
        )}
      </Group>
    ));

  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4">
          Sales
        </Title>
        {sales.length > 0 && (
          <Text size="sm" c="dimmed" data-testid="sales-count">
            {sales.length === 1 ? '1 sale' : `${sales.length} sales`}
            {pages > 1 && `, ${(current - 1) * PAGE_SIZE + 1}–${(current - 1) * PAGE_SIZE + shown.length} shown`}
          </Text>
        )}
      </Group>
      {sales.length === 0 ? (
        <Text c="dimmed">No sales logged yet.</Text>
      ) : compact ? (
        <Stack component="ul" gap="xs" aria-label="Sales" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {shown.map((s) => (
            <Paper component="li" key={s.id} withBorder radius="md" p="sm" data-testid="sale-row" className="laid-out-near">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" fw={600} data-testid="sale-date">
                  {formatDay(s.date)}
                  {withStore && (
                    <Text span size="sm" c="dimmed" data-testid="sale-store">
                      {` · ${storeOf(s)}`}
                    </Text>
                  )}
                </Text>
                {vehicle(s)}
              </Group>
              <Group justify="space-between" wrap="wrap" gap="xs" mt={4}>
                <Text size="sm" data-testid="sale-gross">
                  Gross {formatCents(s.frontGrossCents)}
                </Text>
                <Text size="sm" fw={700} data-testid="sale-commission">
                  {formatCents(s.commissionCents)}
                </Text>
              </Group>
              <Group justify="space-between" wrap="wrap" gap="xs" mt={4}>
                <Text size="sm" c="dimmed" data-testid="sale-plan">
                  {s.planLabel}
                </Text>
                {actions(s)}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover aria-label="Sales">
            <Table.Thead>
              <Table.Tr>
                <SortHeader label="Date" k="date" sort={sort} onSort={onSort} />
                {withStore && <Table.Th>Store</Table.Th>}
                <Table.Th>Vehicle</Table.Th>
                <SortHeader label="Front gross" k="frontGrossCents" sort={sort} onSort={onSort} />
                <Table.Th>Plan</Table.Th>
                <SortHeader label="Commission" k="commissionCents" sort={sort} onSort={onSort} />
                {changeable && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((s) => (
                <Table.Tr key={s.id} data-testid="sale-row">
                  <Table.Td data-testid="sale-date" style={{ whiteSpace: 'nowrap' }}>
                    {formatDay(s.date)}
                  </Table.Td>
                  {withStore && <Table.Td data-testid="sale-store">{storeOf(s)}</Table.Td>}
                  <Table.Td>{vehicle(s)}</Table.Td>
                  <Table.Td data-testid="sale-gross" style={{ whiteSpace: 'nowrap' }}>
                    {formatCents(s.frontGrossCents)}
                  </Table.Td>
                  <Table.Td data-testid="sale-plan" style={{ whiteSpace: 'nowrap' }}>
                    {s.planLabel}
                  </Table.Td>
                  <Table.Td data-testid="sale-commission" fw={700} style={{ whiteSpace: 'nowrap' }}>
                    {formatCents(s.commissionCents)}
                  </Table.Td>
                  {changeable && <Table.Td>{actions(s, true)}</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="space-between" mt="md" gap="xs" component="nav" aria-label="Sales pages">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconChevronLeft size={14} aria-hidden />}
            disabled={current === 1}
            onClick={() => setPage(current - 1)}
          >
            Previous
          </Button>
          <Text size="sm" aria-live="polite" data-testid="sales-page">
            Page {current} of {pages}
          </Text>
          <Button
            variant="default"
            size="xs"
            rightSection={<IconChevronRight size={14} aria-hidden />}
            disabled={current === pages}
            onClick={() => setPage(current + 1)}
          >
            Next
          </Button>
        </Group>
      )}
      <Modal
        opened={!!editing}
        onClose={closeEdit}
        onExitTransitionEnd={() => returnTo && document.getElementById(returnTo)?.focus()}
        returnFocus={false}
        title="Edit sale"
      >
        {editing && (
          <SaleForm
            id={editing.id}
            today={today}
            initial={{
              date: editing.date,
              vehicleType: editing.vehicleType,
              frontGross: asText(editing.frontGrossCents),
              split: editing.split,
              customer: editing.customer ?? '',
            }}
            onSaved={closeEdit}
          />
        )}
      </Modal>
    </Paper>
  );
}
