import { Alert, Badge, Button, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifyFail, notifyOk } from '../components/notify';
import { useCompact } from '../components/useCompact';
import { useWhen } from '../components/when';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import type { Answer } from '../../domain/contract/routes';
import { useAddAddress, useLeadAddresses, useRemoveAddress, useTestAddress, type LeadAddress } from './api';

const RECEIVER_OFF = 'Set INBOUND_SMTP_PORT to turn on the receiver';

/** How mail reaches the portal: the SMTP receiver, the IMAP mailbox, or neither. */
function Intake({ data }: { data: Answer<'GET /mail/addresses'> }) {
  if (!data.receiver && !data.imap) return <Alert color="yellow">Mail intake is off: set INBOUND_SMTP_PORT or IMAP_URL.</Alert>;
  return (
    <Stack gap={4} data-testid="mail-intake">
      {data.receiver && (
        <Text size="sm">
          Mail arrives at the portal&apos;s receiver on port <b data-testid="receiver-port">{data.receiver.port}</b>.
        </Text>
      )}
      {data.imap && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Mail is read from the IMAP mailbox <b>{data.imap.mailbox}</b>.
        </Text>
      )}
      {data.imap?.error && (
        <Alert color="red" title="The IMAP mailbox cannot be read">
          {data.imap.error}
        </Alert>
      )}
    </Stack>
  );
}

function Counts({ a }: { a: LeadAddress }) {
  return (
    <Badge color={a.errors > 0 ? 'red' : 'gray'} variant={a.errors > 0 ? 'filled' : 'light'} data-testid="address-errors">
      {a.errors}
    </Badge>
  );
}

interface RowProps {
  a: LeadAddress;
  receiverOn: boolean;
  testing: boolean;
  removing: boolean;
  onTest: () => void;
  onRemove: () => void;
}

function Name({ a }: { a: LeadAddress }) {
  return (
    <Group gap={6} wrap="wrap">
      <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {a.address}
      </Text>
      {a.group && (
        <Badge size="sm" variant="light" color="grape">
          Group
        </Badge>
      )}
    </Group>
  );
}

function Actions({ a, receiverOn, testing, removing, onTest, onRemove }: RowProps) {
  return (
    <Group gap="xs" wrap="wrap">
      <Button
        size="xs"
        variant="light"
        disabled={!receiverOn}
        loading={testing}
        onClick={onTest}
        aria-label={`Send a test lead to ${a.address}`}
        aria-describedby={receiverOn ? undefined : 'receiver-off'}
      >
        Send a test lead
      </Button>
      {a.configured ? (
        <Text size="xs" c="dimmed">
          Set in INBOUND_ADDRESSES
        </Text>
      ) : (
        <Button size="xs" variant="light" color="red" loading={removing} onClick={onRemove} aria-label={`Remove ${a.address}`}>
          Remove
        </Button>
      )}
    </Group>
  );
}

type Act = (a: LeadAddress) => Omit<RowProps, 'a' | 'receiverOn'>;

/** A table, or cards under 640 px so the buttons are in reach without a sideways swipe. */
function AddressList({ rows, receiverOn, act }: { rows: LeadAddress[]; receiverOn: boolean; act: Act }) {
  const when = useWhen();
  const compact = useCompact();
  const actions = (a: LeadAddress) => <Actions a={a} receiverOn={receiverOn} {...act(a)} />;
  if (compact) {
    return (
      <Stack component="ul" gap="xs" aria-label="Lead addresses" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((a) => (
          <Paper component="li" key={a.id} withBorder radius="md" p="sm" data-testid="lead-address">
            <Name a={a} />
            <Group gap="lg" mt={6} align="flex-start">
              <div>
                <Text size="xs" c="dimmed">
                  Last message
                </Text>
                <Text size="sm">{when(a.lastMessageAt, 'None yet')}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Today
                </Text>
                <Text size="sm">{a.today}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Errors today
                </Text>
                <Counts a={a} />
              </div>
            </Group>
            <div style={{ marginTop: 8 }}>{actions(a)}</div>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped aria-label="Lead addresses">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Address</Table.Th>
            <Table.Th>Last message</Table.Th>
            <Table.Th>Today</Table.Th>
            <Table.Th>Errors today</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((a) => (
            <Table.Tr key={a.id} data-testid="lead-address">
              <Table.Td>
                <Name a={a} />
              </Table.Td>
              <Table.Td>{when(a.lastMessageAt, 'None yet')}</Table.Td>
              <Table.Td>{a.today}</Table.Td>
              <Table.Td>
                <Counts a={a} />
              </Table.Td>
              <Table.Td>{actions(a)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Manager → Integrations → Lead mail: the addresses the portal takes lead mail for, how each fares today, a test lead. */
export function LeadMail() {
  const q = useLeadAddresses();
  const form = useSchemaForm((c) => c.leadAddressSchema, { address: '' });
  const add = useAddAddress();
  const remove = useRemoveAddress();
  const test = useTestAddress();
  const submit = form.onSubmit((v) =>
    add.mutate(v.address.trim(), {
      onSuccess: (r) => {
        notifyOk(`${r.address.address} added.`);
        form.reset();
      },
      onError: (err) => showFieldError(form, err) || notifyFail('Could not add the address', err),
    }),
  );
  const act: Act = (a) => ({
    testing: test.isPending && test.variables.id === a.id,
    removing: remove.isPending && remove.variables === a.id,
    onTest: () =>
      test.mutate(a, {
        onSuccess: () => notifyOk(`Test lead sent to ${a.address}. It shows under Leads → Mail to review → All mail as a test.`),
        onError: (err) => notifyFail('Could not send the test lead', err),
      }),
    onRemove: () =>
      modals.openConfirmModal({
        title: 'Remove lead address',
        children: <Text size="sm">{`Remove ${a.address}? Mail sent to it will be refused from now on.`}</Text>,
        labels: { confirm: 'Remove', cancel: 'Cancel' },
        confirmProps: { color: 'red' },
        onConfirm: () =>
          remove.mutate(a.id, {
            onSuccess: () => notifyOk(`${a.address} removed.`),
            onError: (err) => notifyFail('Could not remove the address', err),
          }),
      }),
  });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="lead-mail-title">
      <Stack>
        <Title order={2} size="h3" id="lead-mail-title">
          Lead mail
        </Title>
        <Text size="sm" c="dimmed">
          Give this address to your lead providers (Cars.com, CarGurus, AutoTrader…) as your ADF lead e-mail. Each lead in a mail goes to the next salesman in
          the round robin; a mail with no lead in it waits under Leads → Mail to review.
        </Text>
        {q.data && <Intake data={q.data} />}
        <form onSubmit={submit}>
          <Group align="flex-end">
            <TextInput
              label="Add a lead address"
              placeholder="leads@yourdealer.com"
              type="email"
              {...form.getInputProps('address')}
              maxLength={200}
              style={{ flex: '1 1 220px', minWidth: 0 }}
            />
            <Button type="submit" color="blue.8" disabled={!form.getValues().address.trim()} loading={add.isPending}>
              Add address
            </Button>
          </Group>
        </form>
        {q.isPending ? (
          <Loader aria-label="Loading lead addresses" />
        ) : q.isError ? (
          <Alert color="red">Could not load the lead addresses: {q.error.message}</Alert>
        ) : !q.data.addresses.length ? (
          <Text c="dimmed">No lead addresses yet.</Text>
        ) : (
          <AddressList rows={q.data.addresses} receiverOn={!!q.data.receiver} act={act} />
        )}
        {q.data && !q.data.receiver && q.data.addresses.length > 0 && (
          <Text size="sm" c="dimmed" id="receiver-off">
            {RECEIVER_OFF}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
