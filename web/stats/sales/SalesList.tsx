import { useState } from 'react';
import { Badge, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { formatCents } from '../../../domain/commission';
import { SaleForm } from './SaleForm';
import { useDeleteSale, type Sale } from './api';

const asText = (cents: number) => {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

export function SalesList({ sales, readOnly, today }: { sales: Sale[]; readOnly: boolean; today: string }) {
  const [editing, setEditing] = useState<Sale | null>(null);
  const [returnTo, setReturnTo] = useState<string | null>(null);
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
          Delete the sale of {s.date} with front gross {formatCents(s.frontGrossCents)}? This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => del.mutate(s.id),
    });

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Sales
      </Title>
      {sales.length === 0 ? (
        <Text c="dimmed">No sales logged yet.</Text>
      ) : (
        <Stack component="ul" gap="xs" aria-label="Sales" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {sales.map((s) => {
            const what = `sale of ${s.date}, ${formatCents(s.frontGrossCents)}`;
            return (
              <Group
                component="li"
                key={s.id}
                data-testid="sale-row"
                justify="space-between"
                gap="xs"
                wrap="wrap"
                py={4}
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              >
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={600} data-testid="sale-date">
                    {s.date}
                  </Text>
                  <Badge variant="light" color={s.vehicleType === 'new' ? 'blue' : 'grape'}>
                    {s.vehicleType === 'new' ? 'New' : 'Used'}
                  </Badge>
                  <Text size="sm" data-testid="sale-gross">
                    Gross {formatCents(s.frontGrossCents)}
                  </Text>
                  <Text size="sm" c="dimmed" data-testid="sale-plan">
                    {s.planLabel}
                  </Text>
                  <Text size="sm" fw={700} data-testid="sale-commission">
                    {formatCents(s.commissionCents)}
                  </Text>
                </Group>
                {!readOnly && (
                  <Group gap={4}>
                    <Button id={`edit-sale-${s.id}`} size="compact-sm" variant="subtle" aria-label={`Edit ${what}`} onClick={() => setEditing(s)}>
                      Edit
                    </Button>
                    <Button size="compact-sm" variant="subtle" color="red" aria-label={`Delete ${what}`} onClick={() => confirmDelete(s)}>
                      Delete
                    </Button>
                  </Group>
                )}
              </Group>
            );
          })}
        </Stack>
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
            initial={{ date: editing.date, vehicleType: editing.vehicleType, frontGross: asText(editing.frontGrossCents), split: editing.split }}
            onSaved={closeEdit}
          />
        )}
      </Modal>
    </Paper>
  );
}
