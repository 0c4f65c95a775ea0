import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowDown, IconArrowUp, IconX } from '@tabler/icons-react';
import { call } from '../api/client';
import { useStore } from '../stores/store';
import { notifyFail } from '../components/notify';
import type { Match, Routing, RoutingRule, Target } from '../../domain/routing';
import { FLOOR, LANGUAGE_WORDS } from '../../domain/routing-terms';
import { loadChecks, withChecks } from '../forms/schemaForm';
import { useRoutingAdmin, useRoutingChange, type RoutingAdmin, type RoutingTried } from './api';

type Team = RoutingAdmin['teams'][number];

const LANGUAGES: Record<string, string> = { es: 'Spanish', fr: 'French', pt: 'Portuguese', zh: 'Chinese', vi: 'Vietnamese', ko: 'Korean' };
const languageName = (code: string) => LANGUAGES[code] ?? code;
const FLOOR_VALUE = 'floor';
const targetValue = (t: Target | null | undefined) => (!t ? '' : 'team' in t ? String(t.team) : FLOOR_VALUE);
const targetOf = (v: string | null): Target => (!v || v === FLOOR_VALUE ? FLOOR : { team: Number(v) });

/** A target in words: a team's name, or the whole floor (so is a team that no longer exists). */
const targetText = (t: Target, teams: Team[]) => {
  const team = 'team' in t ? teams.find((x) => x.id === t.team) : undefined;
  return team ? `${team.name} team` : 'Whole floor';
};

/** A rule's conditions in words. */
function matchText(m: Match): string {
  const parts = [
    m.source && `source ${m.source}`,
    m.key && `key ${m.key}`,
    m.mailbox && `mailed to ${m.mailbox}`,
    m.condition && `${m.condition} vehicle`,
    m.make && `make ${m.make}`,
    m.language && `language ${languageName(m.language)}`,
    m.keyword && `comments say “${m.keyword}”`,
    (m.from || m.to) && `from ${m.from ?? '00:00'} to ${m.to ?? '24:00'}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'Every lead';
}

/** What a save sends: a target naming a team that is gone is the whole floor (what it acts as). */
function cleaned(r: Routing, teams: Team[]): Routing {
  const fix = (t: Target): Target => ('team' in t && !teams.some((x) => x.id === t.team) ? FLOOR : t);
  return {
    ...r,
    fallback: fix(r.fallback),
    rules: r.rules.map((x) => ({ ...x, to: fix(x.to), grab: x.grab && { ...x.grab, then: x.grab.then && fix(x.grab.then) } })),
  };
}

/**
 * Manager → Routing rules: the store's teams and their people, the ordered rules that send a new
 * lead to a team's line or the whole floor's, the store default, and trying a sample lead.
 */
export function RoutingRulesSection() {
  const q = useRoutingAdmin();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="routing-rules-title">
      <Title order={2} size="h4" id="routing-rules-title">
        Routing rules
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Teams have their own line. Each new lead goes to the line of the first rule it meets, else to the store default.
      </Text>
      {q.isPending ? (
        <Skeleton h={120} />
      ) : q.isError ? (
        <Alert color="red">Could not load the routing rules: {q.error.message}</Alert>
      ) : (
        <Stack gap="lg">
          <Teams admin={q.data} />
          <Rules admin={q.data} />
          <TestLead />
        </Stack>
      )}
    </Paper>
  );
}

function Teams({ admin }: { admin: RoutingAdmin }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useRoutingChange(
    (n: string, store) => call('POST /routing/teams', { body: { name: n }, store }),
    'Could not add the team',
    () => setName(''),
  );
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Teams
      </Title>
      <form
        onFocus={loadChecks}
        aria-label="Add a team"
        onSubmit={(e) => {
          e.preventDefault();
          withChecks('Could not add the team', (c) => {
            const r = c.teamNameSchema.safeParse(name);
            if (!r.success) return setError(r.error.issues[0]?.message ?? 'Check the name');
            setError(null);
            create.mutate(r.data);
          });
        }}
      >
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="New team"
            placeholder="Spanish"
            value={name}
            error={error}
            onChange={(e) => setName(e.currentTarget.value)}
            style={{ flex: '1 1 160px' }}
          />
          <Button type="submit" color="blue.8" loading={create.isPending}>
            Add team
          </Button>
        </Group>
      </form>
      {admin.teams.length === 0 ? (
        <Text size="sm" c="dimmed">
          No teams yet: every lead goes to the whole floor.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Teams">
          {admin.teams.map((t) => (
            <TeamCard key={t.id} team={t} people={admin.people} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function TeamCard({ team, people }: { team: Team; people: RoutingAdmin['people'] }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const rename = useRoutingChange(
    (n: string, store) => call('PATCH /routing/teams/:id', { params: { id: team.id }, body: { name: n }, store }),
    'Could not rename the team',
    () => setRenaming(null),
  );
  const remove = useRoutingChange((_: null, store) => call('DELETE /routing/teams/:id', { params: { id: team.id }, store }), 'Could not delete the team');
  const add = useRoutingChange(
    (uid: string, store) => call('POST /routing/teams/:id/members', { params: { id: team.id }, body: { uid }, store }),
    'Could not add him to the team',
  );
  const drop = useRoutingChange(
    (uid: string, store) => call('DELETE /routing/teams/:id/members/:uid', { params: { id: team.id, uid }, store }),
    'Could not take him off the team',
  );
  const others = people.filter((p) => !team.members.some((m) => m.id === p.id));
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={`${team.name} team`}>
      <Stack gap="xs">
        {renaming === null ? (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {team.name}
            </Text>
            <Group gap={6}>
              <Button size="xs" variant="light" aria-label={`Rename ${team.name}`} onClick={() => setRenaming(team.name)}>
                Rename
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                aria-label={`Delete ${team.name}`}
                onClick={() =>
                  modals.openConfirmModal({
                    title: 'Delete team',
                    children: <Text size="sm">{`Delete the ${team.name} team? Rules that send leads to it will send them to the whole floor.`}</Text>,
                    labels: { confirm: 'Delete', cancel: 'Cancel' },
                    confirmProps: { color: 'red' },
                    onConfirm: () => remove.mutate(null),
                  })
                }
              >
                Delete
              </Button>
            </Group>
          </Group>
        ) : (
          <form
            aria-label={`Rename ${team.name}`}
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate(renaming);
            }}
          >
            <Group align="flex-end" gap="xs" wrap="wrap">
              <TextInput label="Team name" value={renaming} onChange={(e) => setRenaming(e.currentTarget.value)} style={{ flex: '1 1 140px' }} />
              <Button type="submit" size="sm" loading={rename.isPending}>
                Save
              </Button>
              <Button size="sm" variant="default" onClick={() => setRenaming(null)}>
                Cancel
              </Button>
            </Group>
          </form>
        )}
        <Group gap={6} wrap="wrap" aria-label={`${team.name} line`}>
          {team.members.length === 0 ? (
            <Text size="sm" c="dimmed">
              No one yet.
            </Text>
          ) : (
            team.members.map((m, i) => (
              <Badge
                key={m.id}
                variant="light"
                size="lg"
                tt="none"
                rightSection={
                  <ActionIcon size="xs" variant="transparent" aria-label={`Take ${m.name} off ${team.name}`} onClick={() => drop.mutate(m.id)}>
                    <IconX size={12} aria-hidden />
                  </ActionIcon>
                }
              >
                {`${i + 1}. ${m.name}`}
              </Badge>
            ))
          )}
        </Group>
        {others.length > 0 && (
          <Select
            aria-label={`Add a salesman to ${team.name}`}
            placeholder="Add a salesman…"
            data={others.map((p) => ({ value: p.id, label: p.name }))}
            value={null}
            searchable
            onChange={(v) => v && add.mutate(v)}
            disabled={add.isPending}
          />
        )}
      </Stack>
    </Paper>
  );
}

function Rules({ admin }: { admin: RoutingAdmin }) {
  const { routing, teams } = admin;
  const [editing, setEditing] = useState<{ index: number | null; rule: RoutingRule } | null>(null);
  const save = useRoutingChange(
    (r: Routing, store) => call('PUT /routing/rules', { body: cleaned(r, teams), store }),
    'Could not save the routing rules',
    () => setEditing(null),
  );
  const put = (rules: RoutingRule[]) => save.mutate({ ...routing, rules });
  const move = (i: number, by: number) => {
    const rules = [...routing.rules];
    [rules[i], rules[i + by]] = [rules[i + by], rules[i]];
    put(rules);
  };
  const targets = [{ value: FLOOR_VALUE, label: 'Whole floor' }, ...teams.map((t) => ({ value: String(t.id), label: `${t.name} team` }))];
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Rules, first match wins
      </Title>
      {routing.rules.length === 0 ? (
        <Text size="sm" c="dimmed">
          No rules: every lead goes to the store default.
        </Text>
      ) : (
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Routing rules">
          {routing.rules.map((r, i) => (
            <Paper key={`${i}-${r.name}`} component="li" withBorder p="sm" radius="md" aria-label={`Rule ${i + 1}: ${r.name}`}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {`${i + 1}. ${r.name}`}
                  </Text>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {`${matchText(r.when)} → ${targetText(r.to, teams)}`}
                  </Text>
                  {r.grab && (
                    <Text size="xs" c="dimmed">
                      {`Up for grabs ${r.grab.after ? `after ${r.grab.after} hand-ons` : 'at once'}, ${r.grab.minutes} min, then ${r.grab.then ? targetText(r.grab.then, teams) : 'the managers'}`}
                    </Text>
                  )}
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="light" size="lg" disabled={i === 0 || save.isPending} aria-label={`Move ${r.name} up`} onClick={() => move(i, -1)}>
                    <IconArrowUp size={18} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="light"
                    size="lg"
                    disabled={i === routing.rules.length - 1 || save.isPending}
                    aria-label={`Move ${r.name} down`}
                    onClick={() => move(i, 1)}
                  >
                    <IconArrowDown size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              <Group gap={6} mt="xs">
                <Button size="xs" variant="light" aria-label={`Edit ${r.name}`} onClick={() => setEditing({ index: i, rule: r })}>
                  Edit
                </Button>
                <Button size="xs" variant="light" color="red" aria-label={`Delete ${r.name}`} onClick={() => put(routing.rules.filter((_, j) => j !== i))}>
                  Delete
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <Group>
        <Button variant="light" onClick={() => setEditing({ index: null, rule: { name: '', when: {}, to: FLOOR, grab: null } })}>
          Add rule
        </Button>
      </Group>
      <Select
        label="Store default"
        description="Where a lead that meets no rule goes."
        data={targets}
        value={teams.some((t) => targetValue(routing.fallback) === String(t.id)) ? targetValue(routing.fallback) : FLOOR_VALUE}
        allowDeselect={false}
        onChange={(v) => save.mutate({ ...routing, fallback: targetOf(v) })}
      />
      <Switch
        label="Serving in one line moves him to the back of his others"
        checked={routing.backOfEveryLine}
        onChange={(e) => save.mutate({ ...routing, backOfEveryLine: e.currentTarget.checked })}
      />
      <Modal opened={!!editing} onClose={() => setEditing(null)} title={editing?.index === null ? 'Add rule' : 'Edit rule'} size="lg">
        {editing && (
          <RuleForm
            rule={editing.rule}
            targets={targets}
            busy={save.isPending}
            onSave={(rule) => put(editing.index === null ? [...routing.rules, rule] : routing.rules.map((r, j) => (j === editing.index ? rule : r)))}
          />
        )}
      </Modal>
    </Stack>
  );
}

type TextKey = 'source' | 'key' | 'mailbox' | 'make' | 'keyword' | 'from' | 'to';
const TEXTS: { key: TextKey; label: string; placeholder?: string; type?: string }[] = [
  { key: 'source', label: 'Source', placeholder: 'Internet' },
  { key: 'key', label: 'Key', placeholder: 'Website form' },
  { key: 'mailbox', label: 'Mail address', placeholder: 'leads@…' },
  { key: 'make', label: 'Make', placeholder: 'Honda' },
  { key: 'keyword', label: 'Keyword in comments', placeholder: 'trade-in' },
  { key: 'from', label: 'From', type: 'time' },
  { key: 'to', label: 'To', type: 'time' },
];

function RuleForm(p: { rule: RoutingRule; targets: { value: string; label: string }[]; busy: boolean; onSave: (r: RoutingRule) => void }) {
  const [name, setName] = useState(p.rule.name);
  const [when, setWhen] = useState<Record<string, string>>(Object.fromEntries(Object.entries(p.rule.when).map(([k, v]) => [k, String(v)])));
  const [to, setTo] = useState(targetValue(p.rule.to));
  const [grab, setGrab] = useState(p.rule.grab ? { after: p.rule.grab.after, minutes: p.rule.grab.minutes, then: targetValue(p.rule.grab.then) } : null);
  const [error, setError] = useState<string | null>(null);
  const set = (k: string, v: string | null) => setWhen((w) => ({ ...w, [k]: v ?? '' }));
  const validTo = p.targets.some((t) => t.value === to) ? to : FLOOR_VALUE;
  return (
    <form
      onFocus={loadChecks}
      aria-label="Rule"
      onSubmit={(e) => {
        e.preventDefault();
        const match = Object.fromEntries(Object.entries(when).filter(([, v]) => v.trim() !== ''));
        const rule = {
          name,
          when: match,
          to: targetOf(validTo),
          grab: grab && { after: grab.after, minutes: grab.minutes, then: grab.then ? targetOf(grab.then) : null },
        };
        withChecks('Could not save the routing rules', (c) => {
          const r = c.routingRuleSchema.safeParse(rule);
          if (!r.success) return setError(r.error.issues[0]?.message ?? 'Check the rule');
          setError(null);
          p.onSave(r.data);
        });
      }}
    >
      <Stack gap="sm">
        <TextInput label="Rule name" placeholder="Spanish" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Text size="sm" c="dimmed">
          A lead meets the rule when every condition filled in holds; leave them all empty for every lead.
        </Text>
        <Group grow wrap="wrap" align="flex-start" gap="sm">
          <Select
            label="Vehicle"
            data={[
              { value: '', label: 'New or used' },
              { value: 'new', label: 'New' },
              { value: 'used', label: 'Used' },
            ]}
            value={when.condition ?? ''}
            allowDeselect={false}
            onChange={(v) => set('condition', v)}
            style={{ minWidth: 140 }}
          />
          <Select
            label="Language"
            data={[{ value: '', label: 'Any' }, ...Object.keys(LANGUAGE_WORDS).map((c) => ({ value: c, label: languageName(c) }))]}
            value={when.language ?? ''}
            allowDeselect={false}
            onChange={(v) => set('language', v)}
            style={{ minWidth: 140 }}
          />
        </Group>
        <Group grow wrap="wrap" align="flex-start" gap="sm">
          {TEXTS.map((t) => (
            <TextInput
              key={t.key}
              label={t.label}
              type={t.type}
              placeholder={t.placeholder}
              value={when[t.key] ?? ''}
              onChange={(e) => set(t.key, e.currentTarget.value)}
              style={{ minWidth: 140 }}
            />
          ))}
        </Group>
        <Select label="Send to" data={p.targets} value={validTo} allowDeselect={false} onChange={(v) => setTo(v ?? FLOOR_VALUE)} />
        <Switch
          label="Up for grabs: the team may claim it"
          checked={!!grab}
          onChange={(e) => setGrab(e.currentTarget.checked ? { after: 0, minutes: 10, then: '' } : null)}
        />
        {grab && (
          <Group grow wrap="wrap" align="flex-start" gap="sm">
            <NumberInput
              label="Offered after passing"
              description="How many salesmen may let it pass first (0: offered at once)"
              min={0}
              max={3}
              allowDecimal={false}
              value={grab.after}
              onChange={(v) => setGrab({ ...grab, after: Number(v) || 0 })}
              style={{ minWidth: 120 }}
            />
            <NumberInput
              label="Minutes"
              min={1}
              max={120}
              allowDecimal={false}
              value={grab.minutes}
              onChange={(v) => setGrab({ ...grab, minutes: Number(v) || 0 })}
              style={{ minWidth: 120 }}
            />
            <Select
              label="Unclaimed, then"
              data={[{ value: '', label: 'The managers' }, ...p.targets]}
              value={grab.then}
              allowDeselect={false}
              onChange={(v) => setGrab({ ...grab, then: v ?? '' })}
              style={{ minWidth: 140 }}
            />
          </Group>
        )}
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button type="submit" color="blue.8" loading={p.busy}>
            Save rule
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TestLead() {
  const { code } = useStore();
  const [traits, setTraits] = useState<Record<string, string>>({});
  const [result, setResult] = useState<RoutingTried | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: string, v: string | null) => setTraits((t) => ({ ...t, [k]: v ?? '' }));
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Test a lead
      </Title>
      <form
        aria-label="Test a lead"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          const body = Object.fromEntries(Object.entries(traits).filter(([, v]) => v.trim() !== ''));
          call('POST /routing/test', { body, store: code })
            .then(setResult)
            .catch((err: unknown) => notifyFail('Could not test the lead', err))
            .finally(() => setBusy(false));
        }}
      >
        <Stack gap="sm">
          <Group grow wrap="wrap" align="flex-start" gap="sm">
            {(
              [
                ['source', 'Source'],
                ['key', 'Key'],
                ['mailbox', 'Mail address'],
                ['make', 'Make'],
              ] as const
            ).map(([k, label]) => (
              <TextInput key={k} label={label} value={traits[k] ?? ''} onChange={(e) => set(k, e.currentTarget.value)} style={{ minWidth: 140 }} />
            ))}
            <Select
              label="Vehicle"
              data={[
                { value: '', label: 'Not said' },
                { value: 'new', label: 'New' },
                { value: 'used', label: 'Used' },
              ]}
              value={traits.condition ?? ''}
              allowDeselect={false}
              onChange={(v) => set('condition', v)}
              style={{ minWidth: 140 }}
            />
            <Select
              label="Language named"
              data={[{ value: '', label: 'Not said' }, ...Object.keys(LANGUAGES).map((c) => ({ value: c, label: languageName(c) }))]}
              value={traits.language ?? ''}
              allowDeselect={false}
              onChange={(v) => set('language', v)}
              style={{ minWidth: 140 }}
            />
          </Group>
          {/* Not autosized: that measures the page as the section is drawn; it can be pulled taller. */}
          <Textarea label="Comments" rows={2} resize="vertical" value={traits.comments ?? ''} onChange={(e) => set('comments', e.currentTarget.value)} />
          <Group>
            <Button type="submit" color="blue.8" loading={busy}>
              Test
            </Button>
          </Group>
        </Stack>
      </form>
      {result && (
        <Alert color={result.wouldGet ? 'teal' : 'orange'} title={result.why} data-testid="test-result">
          {result.wouldGet ? `${result.wouldGet.name} would get it (Next Up there now).` : 'No one in that line can take a lead now: it would wait.'}
        </Alert>
      )}
    </Stack>
  );
}
