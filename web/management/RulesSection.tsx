import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, NumberInput, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import { RULE_LABELS, rulesSchema, type Rules } from '../../domain/rules';
import type { RulesAnswer } from '../../domain/contract/answers';

const when = (iso: string) => new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const shown = (k: keyof Rules, v: unknown) => (k === 'responseWindowMinutes' && v === 0 ? 'off' : String(v));

export function useRules() {
  return useQuery({ queryKey: ['rules'], queryFn: () => call('GET /rules') });
}

function RulesForm({ saved }: { saved: RulesAnswer }) {
  const qc = useQueryClient();
  const [minutes, setMinutes] = useState<number | string>(saved.rules.responseWindowMinutes);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (rules: Rules) => call('PUT /rules', { body: rules }),
    onSuccess: (answer) => {
      qc.setQueryData(['rules'], answer);
      notifyOk('Dealership rules saved.');
    },
    onError: (err) => {
      setError(err.message);
      notifyFail('Could not save the rules', err);
    },
  });
  return (
    <form
      aria-label="Dealership rules"
      onSubmit={(e) => {
        e.preventDefault();
        const r = rulesSchema.safeParse({ responseWindowMinutes: minutes === '' ? undefined : Number(minutes) });
        if (!r.success) return setError(r.error.issues[0].message);
        setError(null);
        save.mutate(r.data);
      }}
    >
      <Stack gap="sm">
        <NumberInput
          label={RULE_LABELS.responseWindowMinutes}
          description="How long a salesman has to accept a new lead before it goes to the next one. 0 turns this off."
          value={minutes}
          onChange={setMinutes}
          min={0}
          max={120}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          error={error}
          maw={360}
        />
        <Group>
          <Button type="submit" loading={save.isPending} color="blue.8">
            Save rules
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Manager → Dealership rules: one record of the floor's rules, every change kept. */
export function RulesSection() {
  const q = useRules();
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Dealership rules
      </Title>
      {q.isPending ? (
        <Skeleton h={90} />
      ) : q.isError ? (
        <Alert color="red">Could not load the rules: {q.error.message}</Alert>
      ) : (
        <Stack>
          {/* A save from another screen remounts the form with what was saved. */}
          <RulesForm key={JSON.stringify(q.data.rules)} saved={q.data} />
          {q.data.history.length > 0 && (
            <Stack gap={2} aria-label="Rule changes">
              <Text size="sm" fw={600}>
                Changes
              </Text>
              {q.data.history.map((h, i) => (
                <Text key={i} size="xs" c="dimmed" data-testid="rule-change">
                  {when(h.at)}, {h.actorName}:{' '}
                  {Object.entries(h.changes)
                    .map(([k, c]) => `${RULE_LABELS[k as keyof Rules] ?? k} ${shown(k as keyof Rules, c.from)} → ${shown(k as keyof Rules, c.to)}`)
                    .join('; ')}
                </Text>
              ))}
            </Stack>
          )}
        </Stack>
      )}
    </Paper>
  );
}
