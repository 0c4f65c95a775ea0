import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, NumberInput, Paper, Select, Skeleton, Stack, Switch, TagsInput, Text, Title } from '@mantine/core';
import { call } from '../api/client';
import { rulesKey, useRules } from '../api/rules';
import { useStore } from '../stores/store';
import { notifyFail, notifyOk } from '../components/notify';
import { isRuleKey, RULE_LABELS } from '../../domain/rule-defaults';
import type { Rules } from '../../domain/rules';
import type { Routing } from '../../domain/routing';
import type { RulesAnswer } from '../../domain/contract/answers';
import { BusinessHours } from './BusinessHours';
import { dayHoursText, WEEKDAYS, type DayHours } from '../../domain/hours';
import { useWhen } from '../components/when';
import { CHANNEL_LABELS, CHANNELS, CHOICE_KINDS, CHOICE_LABELS } from '../../domain/notice-kinds';
import { loadChecks, withChecks } from '../forms/schemaForm';

// A change line shows what the server stored, checked when saved: only its shape is read here
// (the rules' schemas are not on the screen's first path, web/forms/checks.ts).
const isDay = (d: unknown): d is DayHours =>
  d === null || (typeof d === 'object' && typeof (d as { open?: unknown }).open === 'string' && typeof (d as { close?: unknown }).close === 'string');

/** Business hours in a change line: each day, or "around the clock". */
const hoursShown = (v: unknown) =>
  Array.isArray(v) && v.length === 7 && v.every(isDay) ? v.map((d, i) => `${WEEKDAYS[i].slice(0, 3)} ${dayHoursText(d)}`).join(', ') : 'around the clock';

/** The routing in a change line: how many rules, the store default's kind, the switch. */
const routingShown = (v: unknown) => {
  const r = v as Partial<Routing> | null;
  return r && Array.isArray(r.rules) && typeof r.fallback === 'object' && r.fallback && typeof r.backOfEveryLine === 'boolean'
    ? `${r.rules.length} rules, default ${'team' in r.fallback ? 'a team' : 'whole floor'}, back of every line ${r.backOfEveryLine ? 'on' : 'off'}`
    : '—';
};
const shown = (k: string, v: unknown) =>
  k === 'routing'
    ? routingShown(v)
    : k === 'businessHours'
      ? hoursShown(v)
      : k === 'notify'
        ? choicesText(v)
        : k === 'responseWindowMinutes' && v === 0
          ? 'off'
          : typeof v === 'boolean'
            ? v
              ? 'on'
              : 'off'
            : Array.isArray(v)
              ? v.join(', ')
              : String(v);

/** The notice default in a change line: "New lead Push, Appointments E-mail, …". */
const choicesText = (v: unknown) => {
  const c = (v ?? {}) as Record<string, unknown>;
  const channels = CHOICE_KINDS.map((k) => CHANNELS.find((ch) => ch === c[k]));
  if (!channels.every((ch) => ch !== undefined)) return '—';
  return CHOICE_KINDS.map((k, i) => `${CHOICE_LABELS[k]} ${CHANNEL_LABELS[channels[i]]}`).join(', ');
};

type NumberKey = 'responseWindowMinutes' | 'followUpHours' | 'skipSnoozeMinutes' | 'nextFollowUpHours' | 'saleCheckAbove';
const NUMBERS: { key: NumberKey; help: string; max: number }[] = [
  { key: 'responseWindowMinutes', help: 'How long a salesman has to accept a new lead before it goes to the next one. 0 turns this off.', max: 120 },
  { key: 'followUpHours', help: 'When a new lead’s follow-up is due.', max: 168 },
  { key: 'skipSnoozeMinutes', help: 'How long a skipped salesman sits out.', max: 240 },
  { key: 'nextFollowUpHours', help: 'After a logged contact, when the next follow-up is due unless the salesman picks a time.', max: 336 },
  { key: 'saleCheckAbove', help: 'A sale with a larger front gross asks the salesman whether the amount is right before it is saved.', max: 1_000_000 },
];

/** The rules as the form holds them: a number field holds text while it is edited, business hours as drawn. */
type Draft = Omit<Rules, NumberKey | 'businessHours'> & Record<NumberKey, number | string> & { businessHours: readonly DayHours[] | null };

function RulesForm({ saved }: { saved: RulesAnswer }) {
  const qc = useQueryClient();
  const { code } = useStore();
  const [values, setValues] = useState<Draft>(saved.rules);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (rules: Partial<Rules>) => call('PATCH /rules', { body: rules, store: code }),
    onSuccess: (answer) => {
      qc.setQueryData(rulesKey(code), answer);
      notifyOk('Dealership rules saved.');
    },
    onError: (err) => notifyFail('Could not save the rules', err),
  });
  return (
    <form
      onFocus={loadChecks}
      aria-label="Dealership rules"
      onSubmit={(e) => {
        e.preventDefault();
        const typed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' ? undefined : typeof v === 'string' ? Number(v) : v]));
        withChecks('Could not save the rules', (c) => {
          const r = c.rulesSchema.safeParse(typed);
          if (!r.success) return setErrors(Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message])));
          setErrors({});
          // Routing rules have their own screen (Manager → Routing rules): this form leaves them as stored.
          const { routing: _routing, ...rest } = r.data;
          save.mutate(rest);
        });
      }}
    >
      <Stack gap="sm">
        {NUMBERS.map((n) => (
          <NumberInput
            key={n.key}
            label={RULE_LABELS[n.key]}
            description={n.help}
            value={values[n.key]}
            onChange={(v) => setValues((old) => ({ ...old, [n.key]: v }))}
            min={0}
            max={n.max}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            error={errors[n.key]}
            maw={360}
          />
        ))}
        <Switch
          label={RULE_LABELS.checkInOrder}
          description="Salesmen are served in the order they clocked in today; clocking out and in again goes to the end. Off: the fixed order and Reorder."
          checked={values.checkInOrder === true}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setValues((old) => ({ ...old, checkInOrder: on }));
          }}
        />
        <Switch
          label={RULE_LABELS.holdOut}
          description="A salesman with an open lead past its follow-up time, and no contact logged, gets no new leads until he closes or contacts it."
          checked={values.holdOut === true}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setValues((old) => ({ ...old, holdOut: on }));
          }}
        />
        <TagsInput
          label={RULE_LABELS.lostReasons}
          description="What a salesman chooses from when he marks a lead Lost. Type one and press Enter."
          value={values.lostReasons}
          onChange={(lostReasons) => setValues((old) => ({ ...old, lostReasons }))}
          maxTags={20}
          error={Object.entries(errors).find(([k]) => k.split('.')[0] === 'lostReasons')?.[1]}
          maw={560}
          clearable
        />
        <Stack gap={4} aria-label={RULE_LABELS.notify}>
          <Text size="sm" fw={500}>
            {RULE_LABELS.notify}
          </Text>
          <Text size="xs" c="dimmed">
            What each salesman gets until he chooses for himself under Settings. A new lead or an appointment is e-mailed to one whose phone is not set up.
          </Text>
          <Group gap="sm" align="flex-end">
            {CHOICE_KINDS.map((k) => (
              <Select
                key={k}
                label={CHOICE_LABELS[k]}
                data={CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABELS[c] }))}
                value={values.notify[k]}
                allowDeselect={false}
                onChange={(v) => v && setValues((old) => ({ ...old, notify: { ...old.notify, [k]: v } }))}
                error={errors[`notify.${k}`]}
                w={150}
              />
            ))}
          </Group>
        </Stack>
        <BusinessHours value={values.businessHours} onChange={(businessHours) => setValues((old) => ({ ...old, businessHours }))} errors={errors} />
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
  const when = useWhen();
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
                    .map(([k, c]) => `${isRuleKey(k) ? RULE_LABELS[k] : k} ${shown(k, c.from)} → ${shown(k, c.to)}`)
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
