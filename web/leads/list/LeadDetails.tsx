import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { Lead } from '../../api/leads';
import { may as offers } from './may';
import type { OpenDialog } from './LeadDialogs';

/** "2015 Honda Civic · 82000 mi" */
const tradeInText = (t: NonNullable<Lead['tradeIn']>) => [[t.year, t.make, t.model].filter(Boolean).join(' '), t.odometer].filter(Boolean).join(' · ');

/** Where a lead stands in its first minutes (its stage says whether it waits for an Accept): a be-back, handed on, or left for a manager. */
function SpeedBadges({ lead: l }: { lead: Lead }) {
  return (
    <>
      {l.beBack && (
        <Badge size="xs" color="grape" variant="light" data-testid="lead-be-back">
          Be-back
        </Badge>
      )}
      {l.parked ? (
        <Badge size="xs" color="red" variant="light" data-testid="lead-parked">
          No one accepted
        </Badge>
      ) : (
        l.handoffs > 0 && (
          <Badge size="xs" color="gray" variant="light">
            Handed on ×{l.handoffs}
          </Badge>
        )
      )}
    </>
  );
}

/** Phone and e-mail as links a phone acts on: tap to call, to text, to write. */
export function ReachLinks({ lead: l }: { lead: Lead }) {
  const digits = (l.phone ?? '').replace(/[^\d+]/g, '');
  return (
    <Group gap={8} data-testid="lead-contact">
      {l.phone && (
        <>
          <Anchor href={`tel:${digits}`} size="xs" aria-label={`Call ${l.customer} at ${l.phone}`}>
            {l.phone}
          </Anchor>
          <Anchor href={`sms:${digits}`} size="xs" aria-label={`Text ${l.customer}`}>
            Text
          </Anchor>
        </>
      )}
      {l.email && (
        <Anchor href={`mailto:${l.email}`} size="xs" style={{ overflowWrap: 'anywhere' }}>
          {l.email}
        </Anchor>
      )}
    </Group>
  );
}

/** The customer's name and what an integration sent with it: contact, vehicle, trade-in, comments. */
export function LeadDetails({ lead: l, onOpen }: { lead: Lead; onOpen: OpenDialog }) {
  const may = offers(l);
  const vehicle = [l.vehicle, l.vin && `VIN ${l.vin}`].filter(Boolean).join(' · ');

  return (
    <Stack gap={0}>
      <Group gap={6}>
        <Text size="sm" fw={500}>
          {l.customer}
        </Text>
        {l.nameMissing && (
          <Badge size="xs" color="orange" variant="light" data-testid="lead-name-missing">
            Name needed
          </Badge>
        )}
        {may.name && (
          <Button size="compact-xs" variant="light" onClick={() => onOpen('name', l)}>
            Set name
          </Button>
        )}
        <SpeedBadges lead={l} />
      </Group>
      {(l.phone || l.email) && <ReachLinks lead={l} />}
      {vehicle && (
        <Text size="xs" c="dimmed" data-testid="lead-vehicle">
          {vehicle}
        </Text>
      )}
      {l.tradeIn && (
        <Text size="xs" c="dimmed" data-testid="lead-trade-in">
          Trade-in: {tradeInText(l.tradeIn)}
        </Text>
      )}
      {l.comments && (
        <Text size="xs" c="dimmed" lineClamp={4} title={l.comments} style={{ whiteSpace: 'pre-line' }} data-testid="lead-comments">
          {l.comments}
        </Text>
      )}
      {l.source !== 'BDC Portal' && (
        <Text size="xs" c="dimmed" data-testid="lead-provider">
          via {l.source}
        </Text>
      )}
      {may.document && (
        <Group>
          <Button size="compact-xs" variant="subtle" onClick={() => onOpen('document', l)}>
            ADF document
          </Button>
        </Group>
      )}
    </Stack>
  );
}
