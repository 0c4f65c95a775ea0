import { useEffect, type ReactNode } from 'react';
import { Badge, Box, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { IconMaximize } from '@tabler/icons-react';
import '../styles/dashboard';
import { LoadError } from '../components/LoadError';
import { formatDay } from '../../domain/format';
import { TEAM_TOTAL } from '../../domain/board';
import type { TvBoard } from '../../domain/tv';
import { sinceText } from '../stats/sales/board';

/**
 * Across a showroom: the figures scale with the screen, by its width and by its height, so a floor
 * of twelve and the total fit a 1920 × 1080 TV; never below a phone's readable size.
 */
const BIG = 'clamp(1.25rem, min(3vw, 3.3vh), 3.25rem)';
const HUGE = 'clamp(1.75rem, min(4.5vw, 3.7vh), 5rem)';
const HEAD = 'clamp(0.8rem, min(1.3vw, 2.2vh), 1.4rem)';
/** The days since a last sale that turn the figure red: a week without a car. */
const COLD_DAYS = 7;

const cell = { padding: '0.15em 0.5em', fontSize: BIG, lineHeight: 1.15 } as const;

/** The whole screen a TV shows, full height, in the page's colours. */
export function TvScreen({ children }: { children: ReactNode }) {
  return (
    <Box component="main" mih="100dvh" p={{ base: 'sm', sm: 'xl' }} bg="var(--mantine-color-body)" data-testid="sales-tv">
      {children}
    </Box>
  );
}

/**
 * The showroom TV's leaderboard: the store's salesmen ranked by units this month, with each one's
 * pace to the month's end and days since his last sale, in type readable across the room, without
 * the menu. A manager's own (web/stats/SalesTvPage.tsx) and a TV link's (./TvPage.tsx) draw it.
 * `aside`: more at the top right (the manager's way back).
 */
export function Leaderboard({
  store,
  board,
  error,
  onRetry,
  aside,
}: {
  store: string;
  board: TvBoard | undefined;
  error: Error | null;
  onRetry: () => unknown;
  aside?: ReactNode;
}) {
  useEffect(() => {
    if (store) document.title = `Sales leaderboard · ${store}`;
  }, [store]);
  return (
    <TvScreen>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs" mb="sm">
        <div>
          <Title order={1} fz={HUGE} lh={1.1}>
            Sales leaderboard
          </Title>
          <Text fz={HEAD} c="dimmed">
            {store}
            {board && ` · ${formatDay(board.today)}`}
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
          {aside}
        </Group>
      </Group>
      {error && !board ? (
        <LoadError what="the leaderboard" error={error} onRetry={onRetry} />
      ) : !board ? (
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
            {board.rows.map((r, i) => {
              const lead = i === 0 && r.units > 0;
              const cold = r.daysSinceLastSale === null || r.daysSinceLastSale >= COLD_DAYS;
              return (
                <Table.Tr key={i} data-testid="tv-row" bg={lead ? 'var(--mantine-color-yellow-light)' : undefined}>
                  <Table.Td style={cell} c="dimmed" fw={700}>
                    {i + 1}
                  </Table.Td>
                  <Table.Td style={{ ...cell, overflowWrap: 'anywhere' }} fw={700} data-testid="tv-name">
                    {r.name}
                  </Table.Td>
                  <Table.Td style={{ ...cell, fontSize: HUGE }} ta="right" fw={900} data-testid="tv-units">
                    {r.units}
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
                {board.team.units}
              </Table.Td>
              <Table.Td style={cell} ta="right" fw={700} data-testid="tv-pace">
                {board.team.pace}
              </Table.Td>
              <Table.Td style={{ ...cell, whiteSpace: 'nowrap' }} ta="right" fw={700}>
                {sinceText(board.team.daysSinceLastSale)}
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      )}
      <Text fz={HEAD} c="dimmed" mt="sm">
        Units this month · Pace: units by the month&apos;s end at this rate · Last sale: days since
      </Text>
    </TvScreen>
  );
}
