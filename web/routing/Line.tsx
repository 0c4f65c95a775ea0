import { useState, type DragEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Badge, Group, Paper, Skeleton, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical } from '@tabler/icons-react';
import { useCompact } from '../components/useCompact';
import { formatClock } from '../../domain/format';
import { useStore, useTimeZone } from '../stores/store';
import { notifyFail } from '../components/notify';
import { rotationQuery, useReorder, type RotationView } from '../api/rotation';
import { call } from '../api/client';
import { heldOutText } from '../../domain/floor';
import { moveInLine, ROUTING_LOG_SIZE } from '../../domain/rotation';
import { AvailabilityButton, AvailabilityDialog } from '../availability/AvailabilityButton';
import { LimitsButton } from '../routing-rules/LimitsButton';

type Member = RotationView['team'][number];

/**
 * The line as it is served, Next Up first, and below it, in a group of their own, those not in
 * line (off duty, snoozed, held out, inactive). A manager moves someone in the line with the
 * arrows (one place, swapping him with the neighbour shown) or, on a desktop, by dragging his row
 * to another place; nobody else moves. The server takes the line as shown and the order wanted,
 * and refuses a line that changed meanwhile.
 */
export function Line({ team }: { team: Member[] | undefined }) {
  const compact = useCompact();
  const qc = useQueryClient();
  const { code } = useStore();
  const key = rotationQuery(ROUTING_LOG_SIZE, code).queryKey;
  const status = useMutation({
    mutationFn: (b: { uid: string; active?: boolean; onDuty?: boolean }) => call('POST /rotation/status', { body: b }),
    // The switch moves at once; the server's answer (or its refusal) settles it.
    onMutate: async ({ uid, active, onDuty }) => {
      await qc.cancelQueries({ queryKey: key });
      qc.setQueryData<RotationView>(
        key,
        (v) => v && { ...v, team: v.team.map((t) => (t.id === uid ? { ...t, active: active ?? t.active, onDuty: onDuty ?? t.onDuty } : t)) },
      );
    },
    onError: (err) => notifyFail('Failed to update', err),
    onSettled: () => qc.invalidateQueries({ queryKey: ['rotation'] }),
  });
  // While a change is on its way, the switch shows what was asked, whatever a refetch says meanwhile.
  const shown = (t: Member, field: 'active' | 'onDuty') => {
    const asked = status.isPending && status.variables?.uid === t.id ? status.variables[field] : undefined;
    return asked ?? t[field];
  };
  const reorder = useReorder();
  const line = (team ?? []).filter((t) => t.place !== null);
  const out = (team ?? []).filter((t) => t.place === null);
  const ids = line.map((t) => t.id);
  /** Moves him to the place `to` (0 is Next Up) in the line as shown. */
  const moveTo = (t: Member, to: number) => {
    const order = moveInLine(ids, t.id, to);
    if (!order || reorder.isPending || order.every((id, i) => id === ids[i])) return;
    reorder.mutate({ uid: t.id, shown: ids, order });
  };

  const [availabilityOf, setAvailabilityOf] = useState<{ id: string; name: string } | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const from = dragged ? ids.indexOf(dragged) : -1;
  const dragEnd = () => {
    setDragged(null);
    setOver(null);
  };
  const dragProps = (t: Member, i: number) => ({
    draggable: !reorder.isPending,
    onDragStart: (e: DragEvent) => {
      e.dataTransfer.setData('text/plain', t.name);
      e.dataTransfer.effectAllowed = 'move';
      setDragged(t.id);
    },
    onDragOver: (e: DragEvent) => {
      if (!dragged) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      setOver(i);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      const who = line.find((m) => m.id === dragged);
      dragEnd();
      if (who) moveTo(who, i);
    },
    onDragEnd: dragEnd,
    // Where he would land: a line above the row when moving up, below it when moving down.
    style:
      over === i && from >= 0 && from !== i
        ? { boxShadow: `inset 0 ${i < from ? 3 : -3}px 0 var(--mantine-color-teal-6)` }
        : dragged === t.id
          ? { opacity: 0.5 }
          : undefined,
  });

  const activeSwitch = (t: Member, label?: string) => (
    <Switch
      checked={shown(t, 'active')}
      label={label}
      aria-label={`Active: ${t.name}`}
      onChange={(e) => status.mutate({ uid: t.id, active: e.currentTarget.checked })}
    />
  );
  const dutySwitch = (t: Member, label?: string) => (
    <Switch
      checked={shown(t, 'onDuty')}
      label={label}
      aria-label={`On duty: ${t.name}`}
      onChange={(e) => status.mutate({ uid: t.id, onDuty: e.currentTarget.checked })}
    />
  );
  const arrows = (t: Member, i: number) => (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="light" size="lg" disabled={i === 0 || reorder.isPending} aria-label={`Move ${t.name} up`} onClick={() => moveTo(t, i - 1)}>
        <IconArrowUp size={18} aria-hidden />
      </ActionIcon>
      <ActionIcon
        variant="light"
        size="lg"
        disabled={i === line.length - 1 || reorder.isPending}
        aria-label={`Move ${t.name} down`}
        onClick={() => moveTo(t, i + 1)}
      >
        <IconArrowDown size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
  const name = (t: Member) => (
    <Group gap={6} wrap="wrap">
      <Text size="sm" fw={t.place === 1 ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>
        {t.name}
      </Text>
      {t.place === 1 && (
        <Badge color="teal" variant="filled">
          Next Up
        </Badge>
      )}
      <AvailabilityButton person={t} onOpen={setAvailabilityOf} />
      <LimitsButton person={t} />
    </Group>
  );

  /** A table row's first four cells: who, his place, Active and On Duty. */
  const cells = (t: Member) => (
    <>
      <Table.Td>{name(t)}</Table.Td>
      <Table.Td data-testid="place">
        <Place member={t} />
      </Table.Td>
      <Table.Td>{activeSwitch(t)}</Table.Td>
      <Table.Td>{dutySwitch(t)}</Table.Td>
    </>
  );

  const card = (t: Member, i: number | null) => (
    <Paper key={t.id} component="li" withBorder p="sm" radius="md" data-testid="team-row" aria-current={t.place === 1 ? 'true' : undefined}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          {name(t)}
          <div data-testid="place">
            <Place member={t} />
          </div>
        </Stack>
        {i !== null && arrows(t, i)}
      </Group>
      <Group gap="lg" mt="sm">
        {activeSwitch(t, 'Active')}
        {dutySwitch(t, 'On duty')}
      </Group>
    </Paper>
  );
  const list = { listStyle: 'none', padding: 0, margin: 0 } as const;

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4">
        Associates
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The line as it is served, Next Up first. {compact ? 'The arrows move' : 'Drag a row, or use the arrows, to move'} someone; nobody else moves.
      </Text>
      {!team ? (
        <Stack gap={8} aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={32} />
          ))}
        </Stack>
      ) : team.length === 0 ? (
        <Text c="dimmed">No salesmen yet. Add them under Manager.</Text>
      ) : compact ? (
        <Stack gap="md">
          {line.length > 0 ? (
            <Stack gap="sm" component="ul" style={list} aria-label="In line">
              {line.map((t, i) => card(t, i))}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              No one eligible.
            </Text>
          )}
          {out.length > 0 && (
            <>
              <Title order={3} size="h5">
                Not in line
              </Title>
              <Stack gap="sm" component="ul" style={list} aria-label="Not in line">
                {out.map((t) => card(t, null))}
              </Stack>
            </>
          )}
        </Stack>
      ) : (
        <Table striped highlightOnHover aria-label="Associates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>In line</Table.Th>
              <Table.Th>Active</Table.Th>
              <Table.Th>On Duty</Table.Th>
              <Table.Th>Reorder</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {line.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed">
                    No one eligible.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {line.map((t, i) => (
              <Table.Tr key={t.id} data-testid="team-row" aria-current={t.place === 1 ? 'true' : undefined} {...dragProps(t, i)}>
                {cells(t)}
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <IconGripVertical size={18} aria-hidden style={{ cursor: 'grab', color: 'var(--mantine-color-dimmed)' }} />
                    {arrows(t, i)}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          {out.length > 0 && (
            <Table.Tbody>
              <Table.Tr>
                <Table.Th colSpan={5} scope="colgroup">
                  Not in line
                </Table.Th>
              </Table.Tr>
              {out.map((t) => (
                <Table.Tr key={t.id} data-testid="team-row">
                  {cells(t)}
                  <Table.Td />
                </Table.Tr>
              ))}
            </Table.Tbody>
          )}
        </Table>
      )}
      <AvailabilityDialog person={availabilityOf} onClose={() => setAvailabilityOf(null)} />
    </Paper>
  );
}

/** A place in line counted from Next Up (#1, as the salesman's overview shows it), or why he is not in line. */
function Place({ member: t }: { member: Member }) {
  const tz = useTimeZone();
  if (t.place) return <Text size="sm">#{t.place}</Text>;
  // Held out is the reason only when nothing before it in the rule book's order is (snoozed, away).
  if (t.pastDueCount && t.onDuty && t.active && !t.snoozeUntil && t.notInLine === heldOutText(t.pastDueCount)) {
    return (
      <Badge color="red" variant="light" title={t.pastDue.map((l) => l.customer).join(', ') || undefined} data-testid="held-out">
        {heldOutText(t.pastDueCount)}
      </Badge>
    );
  }
  const [label, color] = t.snoozeUntil ? [`Snoozed until ${formatClock(new Date(t.snoozeUntil), tz)}`, 'orange'] : [t.notInLine ?? 'Off duty', 'gray'];
  return (
    <Badge color={color} variant="light">
      {label}
    </Badge>
  );
}
