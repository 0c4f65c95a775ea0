import { Group, Text } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useRulesNow } from '../api/rules';
import { useTimeZone } from '../stores/store';
import { floorState, hoursText } from '../../domain/hours';
import { useNowUntil } from '../components/useNow';

/** The floor's business hours as they stand now: "Open until 8:00 PM"; nothing around the clock. */
export function FloorHours() {
  const { businessHours } = useRulesNow();
  const tz = useTimeZone();
  // Drawn again the moment the floor opens or closes, not up to a tick later.
  const now = useNowUntil((at) => {
    const s = floorState(businessHours, at, tz);
    return s.kind === 'open' ? s.closesAt : s.kind === 'closed' ? s.opensAt : null;
  });
  const text = hoursText(businessHours, now, tz);
  if (!text) return null;
  return (
    <Group gap={6} wrap="nowrap" mt={-8}>
      <IconClock size={18} aria-hidden style={{ flexShrink: 0 }} />
      <Text c="dimmed" data-testid="floor-hours">
        {text}
      </Text>
    </Group>
  );
}
