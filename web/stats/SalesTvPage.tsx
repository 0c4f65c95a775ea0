import { useEffect } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Box, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { IconMaximize } from '@tabler/icons-react';
import '../styles/dashboard';
import { useLiveEvents } from '../api/live';
import { LoadError } from '../components/LoadError';
import { useSignedOut } from '../session/useSignedOut';
import { useStore, useStorePath } from '../stores/store';
import { formatDay } from '../../domain/format';
import { TEAM_TOTAL } from '../../domain/board';
import { sinceText, useSalesBoard } from './sales/board';

/** Across a showroom: the figures scale with the screen, never below a phone's readable size. */
const BIG = 'clamp(1.25rem, 3vw, 3.25rem)';
const HUGE = 'clamp(1.75rem, 4.5vw, 5rem)';
const HEAD = 'clamp(0.8rem, 1.3vw, 1.4rem)';
/** The days since a last sale that turn the figure red: a week without a car. */
const COLD_DAYS = 7;

const cell = { padding: '0.35em 0.5em', fontSize: BIG, lineHeight: 1.15 } as const;

/**
 * The showroom TV: the store's salesmen ranked by units this month, with each one's pace to the
 * month's end and days since his last sale, in type readable across the room, without the menu.
 * Live: its own event stream refreshes the board (a query key starting with 'sales') at each sale;
 * a timer turns the days over at midnight on a screen nobody touches.
 */
export default function SalesTvPage() {
  const store = useStore();
  const to = useStorePath();
  const onRevoked = useSignedOut();
  useLiveEvents(store.code, onRevoked);
  const q = useSalesBoard(5 * 60_000);
  const b = q.data;
  useEffect(() => {
    document.title = `Sales leaderboard · ${store.name}`;
  }, [store.name]);

  return (
    <Box component="main" mih="100dvh" p={{ base: 'sm', sm: 'xl' }} bg="var(--mantine-color-body)" data-testid="sales-tv">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs" mb="lg">
        <div>
          <Title order={1} fz={HUGE} lh={1.1}>
            Sales leaderboard
          </Title>
          <Text fz={HEAD} c="dimmed">
            {store.name}
            {b && ` · ${formatDay(b.today)}`}
          </Text>
        </div>
        <Group gap="sm">
          <Badge size="xl" color="teal" variant="dot" aria-label="Live: updates at each sale">
            Live
          </Badge>
          <Button
            variant="subtle"
            size="compact-md"
            leftSection={<IconMaximize size={18} aria-hidden />}
            onClick={() => void document.documentElement.requestFullscreen?.().catch(() => undefined)}
          >
            Full screen
          </Button>
          <Anchor component={Link} to={to('/dashboard/stats/sales')} size="sm">
            Back to the board
          </Anchor>
        </Group>
      </Group>
      {q.isError ? (
        <LoadError what="the leaderboard" error={q.error} onRetry={() => q.refetch()} />
      ) : !b ? (
        <Loader aria-label="Loading" />
      ) : (
        <Table aria-label="Salesmen by units this month" verticalSpacing={0} horizontalSpacing={0} layout="auto" withRowBorders>
          <Table.Thead>
            <Table.Tr>
              {['#', 'Salesman', 'Units', 'Pace', 'Last sale'].map((h, i) => (
                <Table.Th key={h} fz={HEAD} c="dimmed" ta={i > 1 ? 'right' : 'left'} style={{ padding: '0.35em 0.5em', whiteSpace: 'nowrap' }}>
                  {h}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {b.rows.map((r, i) => {
              const lead = i === 0 && r.mtd.units > 0;
              const cold = r.daysSinceLastSale === null || r.daysSinceLastSale >= COLD_DAYS;
              return (
                <Table.Tr key={r.id} data-testid="tv-row" bg={lead ? 'var(--mantine-color-yellow-light)' : undefined}>
                  <Table.Td style={cell} c="dimmed" fw={700}>
                    {i + 1}
                  </Table.Td>
                  <Table.Td style={{ ...cell, overflowWrap: 'anywhere' }} fw={700} data-testid="tv-name">
                    {r.name}
                  </Table.Td>
                  <Table.Td style={{ ...cell, fontSize: HUGE }} ta="right" fw={900} data-testid="tv-units">
                    {r.mtd.units}
                  </Table.Td>
                  <Table.Td style={cell} ta="right" data-testid="tv-pace">
                    {r.pace}
                  </Table.Td>
                  <Table.Td style={{ ...cell, whiteSpace: 'nowrap' }} ta="right" c={cold ? 'red' : undefined} data-testid="tv-since">
                    {sinceText(r.daysSinceLastSale)}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr data-testid="tv-total">
              <Table.Td style={cell} />
              <Table.Td style={cell} fw={900}>
                {TEAM_TOTAL}
              </Table.Td>
              <Table.Td style={{ ...cell, fontSize: HUGE }} ta="right" fw={900} data-testid="tv-units">
                {b.team.mtd.units}
              </Table.Td>
              <Table.Td style={cell} ta="right" fw={700} data-testid="tv-pace">
                {b.team.pace}
              </Table.Td>
              <Table.Td style={{ ...cell, whiteSpace: 'nowrap' }} ta="right" fw={700}>
                {sinceText(b.team.daysSinceLastSale)}
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      )}
      <Text fz={HEAD} c="dimmed" mt="lg">
        Units this month · Pace: units by the month&apos;s end at this rate · Last sale: days since
      </Text>
    </Box>
  );
}
