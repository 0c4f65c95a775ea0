import { useDeferredValue } from 'react';
import '../styles/charts';
import { Alert, Button, Grid, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { LoadError } from '../components/LoadError';
import { ApiError } from '../../domain/errors';
import { formatDay } from '../../domain/format';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../components/PageTitle';
import { useSession } from '../session/SessionProvider';
import { ALL_MY_STORES, exportUrl, useAllMySales, useTracker } from './sales/api';
import { AddSale } from './sales/AddSale';
import { SalesList } from './sales/SalesList';
import { Figures } from './sales/Figures';
import { Charts } from './sales/Charts';
import { useStore } from '../stores/store';
import { PlanCard } from './sales/PlanCard';
import { TeamBoard } from './sales/TeamBoard';

/** The picker's first choice for a manager: the team board (issue #29), where his Sales page opens. */
const TEAM = 'team';

export default function SalesPage() {
  const { user, isManager } = useSession();
  const { code } = useStore();
  const [params, setParams] = useSearchParams();
  const picked = params.get('user');
  const userId = picked && picked !== user?.uid ? picked : null;
  // A salesman of several stores may see his sales of them all at once (read-only; each names its store).
  const severalStores = (user?.stores.length ?? 0) > 1;
  const all = severalStores && !userId && params.get('stores') === 'all';
  // A manager's page opens on the team board; ?view=mine is his own tracker, ?user= a salesman's.
  const board = isManager && !userId && !all && params.get('view') !== 'mine';
  const one = useTracker(all ? null : userId);
  const every = useAllMySales(all);
  const q = all ? every : one;
  const t = q.data;
  const salesmen = all ? undefined : one.data?.salesmen;
  // The figures come first; the form and the list of sales below are built after them, in
  // slices between which a phone still paints and answers taps (a deferred value).
  const below = useDeferredValue(t ?? null, null);

  const refused = q.error instanceof ApiError && q.error.status >= 400 && q.error.status < 500;

  return (
    <Stack>
      <PageTitle>Sales Tracker</PageTitle>
      {/* Drawn while his salesmen are still asked for (the team board first, alone): drawn once they came, it would push the board down. */}
      {isManager && (salesmen || (!all && one.isPending)) && (
        <Select
          label="Salesman"
          description="Anyone else's tracker is read-only."
          searchable
          allowDeselect={false}
          data={[
            { value: TEAM, label: 'Team board' },
            ...(salesmen ?? []).map((s) => ({ value: s.id, label: s.id === user?.uid ? `My sales (${s.name})` : `${s.name} · ${s.email}` })),
          ]}
          value={board ? TEAM : (userId ?? user?.uid ?? null)}
          onChange={(v) => setParams(v === TEAM ? {} : v && v !== user?.uid ? { user: v } : { view: 'mine' })}
          w={{ base: '100%', xs: 360 }}
        />
      )}
      {severalStores && !userId && !board && (
        <Switch
          label="All my stores"
          description={`Your sales in all ${user?.stores.length} of your stores, each with its store.`}
          checked={all}
          onChange={(e) => setParams(e.currentTarget.checked ? { stores: 'all' } : {})}
          data-testid="all-my-stores"
        />
      )}
      {q.isError &&
        (refused ? (
          <Alert color="red">Could not load the sales: {q.error.message}</Alert>
        ) : (
          <LoadError what="the sales" error={q.error} onRetry={() => q.refetch()} />
        ))}
      {board ? (
        <TeamBoard onPick={(id) => setParams(id === user?.uid ? { view: 'mine' } : { user: id })} />
      ) : !t ? (
        q.isPending && (
          <Stack aria-hidden>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              {Array.from({ length: 8 }, (_, i) => (
                <Skeleton key={i} h={92} />
              ))}
            </SimpleGrid>
            <Skeleton h={280} />
          </Stack>
        )
      ) : (
        <>
          {'stores' in t ? (
            <Alert color="blue" data-testid="all-stores">
              Your sales in {t.stores.length > 4 ? `${t.stores.length} stores` : t.stores.map((st) => st.name).join(', ')} — read-only. Add or change a sale in
              its own store.
            </Alert>
          ) : (
            t.readOnly && (
              <Alert color="blue" data-testid="read-only">
                Viewing {t.owner.name} ({t.owner.email}) — read-only.
              </Alert>
            )
          )}
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="figures-title">
            <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
              <div>
                <Title order={2} size="h4" id="figures-title">
                  Month and year to date
                </Title>
                <Text size="sm" c="dimmed">
                  Through {formatDay(t.today)}, against the same days last month and last year.
                </Text>
              </div>
              <Button
                component="a"
                href={exportUrl(userId, all ? ALL_MY_STORES : code)}
                download="sales_records.csv"
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden />}
              >
                Export CSV
              </Button>
            </Group>
            <Figures f={t.figures} sales={t.sales} today={t.today} />
          </Paper>
          <Charts daily={t.daily} monthly={t.monthly} />
          {!t.readOnly && <PlanCard />}
          {!below ? (
            <Skeleton h={280} aria-hidden />
          ) : (
            <Grid className="laid-out-near">
              {!below.readOnly && (
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <Paper withBorder p="md" radius="md">
                    <Title order={2} size="h4" mb="sm">
                      Add Sale
                    </Title>
                    <AddSale key={below.today} today={below.today} />
                  </Paper>
                </Grid.Col>
              )}
              <Grid.Col span={{ base: 12, md: below.readOnly ? 12 : 8 }}>
                <SalesList sales={below.sales} today={below.today} />
              </Grid.Col>
            </Grid>
          )}
        </>
      )}
    </Stack>
  );
}
