import { useState } from 'react';
import { Badge, Button, CloseButton, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifyFail, notifyOk } from '../components/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { useStore } from '../stores/store';
import { BusinessHours } from '../management/BusinessHours';
import { ApiError, messageOf } from '../../domain/errors';
import type { Availability } from '../../domain/contract/answers';
import type { DayHours } from '../../domain/hours';
import { MAX_TIME_OFF_NOTE } from '../../domain/hours';

/** The key of a person's availability; under 'rotation', so the line's news refreshes it. */
export const availabilityKey = (store: string, id: string) => ['rotation', 'availability', store, id];

const fieldOf = (err: unknown) => (err instanceof ApiError && err.field ? err.field : '');

/**
 * Who is available: a person's own working days and hours in this store, and his time off.
 * Outside them he is out of every line; the Routing screen says why ("Off Nov 28–30").
 * `self`: he is looking at his own (Settings); else a manager looks at someone's.
 */
export function AvailabilityCard({ personId, self }: { personId: string; self: boolean }) {
  const { code: store } = useStore();
  const qc = useQueryClient();
  const key = availabilityKey(store, personId);
  const q = useQuery({ queryKey: key, queryFn: () => call('GET /availability/:id', { params: { id: personId }, store }) });
  const [hours, setHours] = useState<DayHours[] | null | undefined>(undefined);
  const [hoursErrors, setHoursErrors] = useState<Record<string, string>>({});
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [offError, setOffError] = useState<{ field: string; message: string } | null>(null);
  const done = (a: Availability) => qc.setQueryData(key, a);

  const saveHours = useMutation({
    mutationFn: (h: DayHours[] | null) => call('PUT /availability/:id/hours', { params: { id: personId }, body: { hours: h as Availability['hours'] }, store }),
    onSuccess: (a) => {
      done(a);
      setHours(undefined);
      setHoursErrors({});
      notifyOk('Hours saved.');
    },
    onError: (err) => setHoursErrors({ [fieldOf(err) || 'hours']: messageOf(err) }),
  });
  const addOff = useMutation({
    mutationFn: () =>
      call('POST /availability/:id/time-off', { params: { id: personId }, body: { fromDay: from, toDay: to || from, note: note.trim() || null }, store }),
    onSuccess: (a) => {
      done(a);
      setFrom('');
      setTo('');
      setNote('');
      setOffError(null);
    },
    onError: (err) => setOffError({ field: fieldOf(err), message: messageOf(err) }),
  });
  const removeOff = useMutation({
    mutationFn: (offId: number) => call('DELETE /availability/:id/time-off/:offId', { params: { id: personId, offId }, store }),
    onSuccess: done,
    onError: (err) => notifyFail(null, err),
  });

  const a = q.data;
  const shown = hours === undefined ? (a?.hours ?? null) : hours;
  const errorAt = (f: string) => (offError && (offError.field === f || (!offError.field && f === 'fromDay')) ? offError.message : undefined);

  return (
    <Paper withBorder p="md" radius="md" aria-label="Availability" component="section">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            Availability
          </Title>
          {a && (
            <Badge color={a.away ? 'gray' : 'teal'} variant="light" data-testid="availability-now">
              {a.away ?? 'Available now'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {self ? 'Your' : a ? `${a.person.name}’s` : 'Their'} working days and hours here, and time off. Outside them {self ? 'you are' : 'they are'} out of
          every line without anyone clocking {self ? 'you' : 'them'} out.
        </Text>
        {q.isError && <Text c="red.8">{messageOf(q.error)}</Text>}
        {!a ? (
          !q.isError && <Skeleton h={80} />
        ) : (
          <>
            <BusinessHours
              value={shown}
              onChange={(v) => setHours(v)}
              errors={hoursErrors}
              field="hours"
              label="Own working hours"
              description="Off: whenever the store is open."
              closed="Off"
            />
            {hours !== undefined && (
              <Group gap="xs">
                <Button onClick={() => saveHours.mutate(hours)} loading={saveHours.isPending}>
                  Save hours
                </Button>
                <Button variant="default" onClick={() => (setHours(undefined), setHoursErrors({}))}>
                  Cancel
                </Button>
              </Group>
            )}
            <Title order={3} size="h5" mt="xs">
              Time off
            </Title>
            {a.timeOff.length === 0 ? (
              <Text size="sm" c="dimmed">
                No time off ahead.
              </Text>
            ) : (
              <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Time off">
                {a.timeOff.map((t) => (
                  <Group component="li" key={t.id} gap="xs" wrap="nowrap" justify="space-between" data-testid="time-off">
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {t.text}
                      {t.everywhere ? '' : ' · this store only'}
                      {t.note ? ` · ${t.note}` : ''}
                    </Text>
                    <CloseButton aria-label={`Remove ${t.text}`} onClick={() => removeOff.mutate(t.id)} disabled={removeOff.isPending} />
                  </Group>
                ))}
              </Stack>
            )}
            <Stack
              gap="xs"
              component="form"
              aria-label="Add time off"
              onSubmit={(e) => {
                e.preventDefault();
                addOff.mutate();
              }}
            >
              <Group gap="xs" align="flex-start" wrap="wrap">
                <TextInput
                  type="date"
                  label="First day off"
                  value={from}
                  min={a.today}
                  onChange={(e) => setFrom(e.currentTarget.value)}
                  error={errorAt('fromDay')}
                  required
                  w={170}
                />
                <TextInput
                  type="date"
                  label="Last day off"
                  description="Empty: one day"
                  value={to}
                  min={from || a.today}
                  onChange={(e) => setTo(e.currentTarget.value)}
                  error={errorAt('toDay')}
                  w={170}
                />
              </Group>
              <TextInput
                label="Note"
                placeholder="Vacation"
                value={note}
                onChange={(e) => setNote(e.currentTarget.value)}
                maxLength={MAX_TIME_OFF_NOTE}
                error={errorAt('note')}
              />
              <Button type="submit" loading={addOff.isPending} style={{ alignSelf: 'flex-start' }}>
                Add time off
              </Button>
            </Stack>
          </>
        )}
      </Stack>
    </Paper>
  );
}
