import { Checkbox, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { TYPICAL_HOURS, WEEKDAYS, type DayHours } from '../../domain/hours';

const OPEN_DAY = { open: '09:00', close: '20:00' };

/**
 * Business hours per weekday (Sunday first) on the dealership's clock, or none: open around the
 * clock. `errors` are keyed by the rule's path ("businessHours.1.close").
 */
export function BusinessHours({
  value,
  onChange,
  errors,
  field = 'businessHours',
  label = 'Business hours',
  description = 'At closing everyone is taken off duty and managers get the floor report; leads that come in while closed wait for the morning. Off: open around the clock.',
  closed = 'Closed',
}: {
  value: readonly DayHours[] | null;
  onChange: (v: DayHours[] | null) => void;
  errors: Record<string, string>;
  /** The field's path in `errors` (a person's own hours: "hours"). */
  field?: string;
  label?: string;
  description?: string;
  /** What a day off reads. */
  closed?: string;
}) {
  const setDay = (i: number, day: DayHours) => onChange((value ?? TYPICAL_HOURS).map((d, j) => (j === i ? day : d)));
  return (
    <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Switch
        label={label}
        description={description}
        checked={value !== null}
        onChange={(e) => onChange(e.currentTarget.checked ? [...TYPICAL_HOURS] : null)}
      />
      {errors[field] && (
        <Text size="sm" c="red.8">
          {errors[field]}
        </Text>
      )}
      {value && (
        <Stack gap={6} pl={{ base: 0, xs: 'xl' }} aria-label="Hours per weekday" role="group">
          {WEEKDAYS.map((name, i) => {
            const day = value[i];
            const err = (k: string) => errors[`${field}.${i}.${k}`] ?? (k === 'close' ? errors[`${field}.${i}`] : undefined);
            return (
              <Group key={name} gap="xs" wrap="wrap" align="flex-start" data-testid="hours-row">
                <Checkbox
                  label={name}
                  checked={day !== null}
                  onChange={(e) => setDay(i, e.currentTarget.checked ? OPEN_DAY : null)}
                  w={130}
                  mt={8}
                  aria-label={`Open on ${name}`}
                />
                {day ? (
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <TextInput
                      type="time"
                      aria-label={`${name} opens`}
                      value={day.open}
                      onChange={(e) => setDay(i, { ...day, open: e.currentTarget.value })}
                      error={err('open')}
                      w={128}
                    />
                    <Text c="dimmed" mt={8} aria-hidden>
                      to
                    </Text>
                    <TextInput
                      type="time"
                      aria-label={`${name} closes`}
                      value={day.close}
                      onChange={(e) => setDay(i, { ...day, close: e.currentTarget.value })}
                      error={err('close')}
                      w={128}
                    />
                  </Group>
                ) : (
                  <Text c="dimmed" mt={8} size="sm">
                    {closed}
                  </Text>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
