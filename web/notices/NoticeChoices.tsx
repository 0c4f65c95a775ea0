import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import { CHANNEL_LABELS, CHANNELS, CHOICE_KINDS, CHOICE_LABELS } from '../../domain/notice-kinds';
import type { Choices } from '../../domain/notices';

export const NOTIFY_KEY = ['profile', 'notify'];
const OPTIONS = CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABELS[c] }));

/** Settings → What reaches you: per kind of notice, Push, Text, E-mail or None; the dealership's default until he picks. */
export function NoticeChoices() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: NOTIFY_KEY, queryFn: () => call('GET /profile/notify') });
  const save = useMutation({
    mutationFn: (choices: Choices | null) => call('PUT /profile/notify', { body: { choices } }),
    onSuccess: (answer, choices) => {
      qc.setQueryData(NOTIFY_KEY, answer);
      notifyOk(choices ? 'Saved: this is what reaches you now.' : 'Back to the dealership’s choices.');
    },
    onError: (err) => notifyFail('Could not save your choices', err),
  });
  const s = q.data;
  if (!s) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="notice-choices">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          What reaches you
        </Title>
        <Text size="sm" c="dimmed">
          Nothing buzzes outside the store’s hours. When half your time to accept a lead is gone, a text goes to your confirmed mobile whatever you choose here.
          A new lead or an appointment comes by e-mail when the phone you chose is not set up.
        </Text>
        {CHOICE_KINDS.map((k) => (
          <Select
            key={k}
            label={CHOICE_LABELS[k]}
            data={OPTIONS}
            value={s.choices[k]}
            allowDeselect={false}
            disabled={save.isPending}
            onChange={(v) => v && save.mutate({ ...s.choices, [k]: v })}
            maw={240}
          />
        ))}
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {s.own ? 'Your own choices.' : 'The dealership’s choices.'}
          </Text>
          {s.own && (
            <Button variant="subtle" size="compact-sm" onClick={() => save.mutate(null)} loading={save.isPending}>
              Use the dealership’s
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
