import '../styles/charts';
import { Alert, Button, Grid, Group, Paper, Select, Skeleton, Stack, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../components/PageTitle';
import { useSession } from '../session/SessionProvider';
import { exportUrl, useTracker } from './sales/api';
import { SaleForm } from './sales/SaleForm';
import { SalesList } from './sales/SalesList';
import { Figures } from './sales/Figures';
import { Charts } from './sales/Charts';

export default function SalesPage() {
  const { user, isManager } = useSession();
  const [params, setParams] = useSearchParams();
  const picked = params.get('user');
  const userId = picked && picked !== user?.uid ? picked : null;
  const q = useTracker(userId);
  const t = q.data;

  return (
    <Stack>
      <PageTitle>Sales Tracker</PageTitle>
      <Group justify="space-between" align="flex-end" gap="sm">
        {isManager && t?.salesmen ? (
          <Select
            label="Salesman"
            description="Anyone else's tracker is read-only."
            searchable
            allowDeselect={false}
            data={t.salesmen.map((s) => ({ value: s.id, label: s.id === user?.uid ? `${s.name} (you)` : `${s.name} · ${s.email}` }))}
            value={userId ?? user?.uid ?? null}
            onChange={(v) => setParams(v && v !== user?.uid ? { user: v } : {})}
            w={{ base: '100%', xs: 320 }}
          />
        ) : (
          <div />
        )}
        <Button component="a" href={exportUrl(userId)} download="sales_records.csv" variant="light">
          Export CSV
        </Button>
      </Group>
      {q.isError && <Alert color="red">Could not load the sales: {q.error.message}</Alert>}
      {!t ? (
        q.isPending && <Skeleton h={240} />
      ) : (
        <>
          {t.readOnly && (
            <Alert color="blue" data-testid="read-only">
              Viewing {t.owner.name} ({t.owner.email}) — read-only.
            </Alert>
          )}
          <Figures f={t.figures} />
          <Grid>
            {!t.readOnly && (
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="sm">
                    Add Sale
                  </Title>
                  <SaleForm key={t.today} today={t.today} initial={{ date: t.today, vehicleType: 'new', frontGross: '', split: 'full' }} />
                </Paper>
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, md: t.readOnly ? 12 : 8 }}>
              <SalesList sales={t.sales} readOnly={t.readOnly} today={t.today} />
            </Grid.Col>
          </Grid>
          <Charts daily={t.daily} monthly={t.monthly} />
        </>
      )}
    </Stack>
  );
}
