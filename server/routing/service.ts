import type { Db, StoreDb } from '../db';
import { withRotationLock } from '../db';
import { ApiError, badRequest, notFound } from '../http/errors';
import { writeAudit, type AuditEntry } from '../users/audit';
import { loadRules } from '../rules/service';
import { nextUp, nextUpInTeam, sqlEnv, teamStaff } from '../rotation/queries';
import type { Actor } from '../../domain/users';
import type { RoutingAdmin, RoutingTried } from '../../domain/contract/answers';
import { conditionOf, lineOfTarget, NO_TRAITS, route, type LeadTraits } from '../../domain/routing';
import { MAX_TEAMS } from '../../domain/routing-terms';
import { routedText, type Limits, type TraitsInput } from '../../domain/teams';

/** A store's teams, in name order. */
const teamsOf = (db: Db, store: number) => db.selectFrom('teams').select(['id', 'name']).where('store_id', '=', store).orderBy('name').orderBy('id').execute();

/** The store's teams with their lines' people in order, its salesmen's weights and caps, its routing. */
export async function routingAdmin(db: Db, store: number, change: boolean): Promise<RoutingAdmin> {
  const [teams, people, rules] = await Promise.all([teamsOf(db, store), teamStaff(db, store), loadRules(db, store)]);
  const ids = teams.map((t) => Number(t.id));
  const rows = ids.length
    ? await db
        .selectFrom('team_members as tm')
        .innerJoin('users', 'users.id', 'tm.user_id')
        .select(['tm.team_id', 'users.id', 'users.name'])
        .where('tm.team_id', 'in', ids)
        .where('users.deleted_at', 'is', null)
        .orderBy('tm.position')
        .orderBy('users.id')
        .execute()
    : [];
  return {
    teams: teams.map((t) => ({
      id: Number(t.id),
      name: t.name,
      members: rows.filter((r) => Number(r.team_id) === Number(t.id)).map((r) => ({ id: r.id, name: r.name })),
    })),
    people: people.map((m) => ({ id: m.id, name: m.name, weight: m.weight ?? 1, dailyCap: m.dailyCap ?? null, openCap: m.openCap ?? null })),
    routing: rules.routing,
    can: { change },
  };
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

async function checkFreeName(trx: Db, store: number, name: string, except?: number) {
  const taken = (await teamsOf(trx, store)).find((t) => Number(t.id) !== except && sameName(t.name, name));
  if (taken) throw new ApiError(409, `There is already a team named "${taken.name}" in this store.`, undefined, 'name');
}

async function teamIn(trx: Db, store: number, id: number) {
  const t = await trx.selectFrom('teams').select(['id', 'name']).where('id', '=', id).where('store_id', '=', store).executeTakeFirst();
  if (!t) throw notFound('Team not found');
  return t;
}

export function createTeam(h: StoreDb, name: string, now = Date.now()) {
  return withRotationLock(h, async (trx) => {
    const count = (await teamsOf(trx, h.store)).length;
    if (count >= MAX_TEAMS) throw new ApiError(409, `A store keeps at most ${MAX_TEAMS} teams.`);
    await checkFreeName(trx, h.store, name);
    await trx.insertInto('teams').values({ store_id: h.store, name, created_at: now }).execute();
  });
}

export function renameTeam(h: StoreDb, id: number, name: string) {
  return withRotationLock(h, async (trx) => {
    await teamIn(trx, h.store, id);
    await checkFreeName(trx, h.store, name, id);
    await trx.updateTable('teams').set({ name }).where('id', '=', id).execute();
  });
}

/** A deleted team's rules send their leads to the whole floor (domain/routing.ts lineOfTarget), and so do its leads still waiting or in its pool. */
export function deleteTeam(h: StoreDb, id: number) {
  return withRotationLock(h, async (trx) => {
    await teamIn(trx, h.store, id);
    await trx.deleteFrom('team_members').where('team_id', '=', id).execute();
    await trx.deleteFrom('teams').where('id', '=', id).execute();
    await trx.updateTable('leads').set({ team_id: null }).where('store_id', '=', h.store).where('team_id', '=', id).execute();
    await trx.updateTable('leads').set({ grab_team: null }).where('store_id', '=', h.store).where('grab_team', '=', id).execute();
  });
}

/** A salesman of the store joins a team, at the back of its line. */
export function addMember(h: StoreDb, id: number, uid: string, now = Date.now()) {
  return withRotationLock(h, async (trx) => {
    const team = await teamIn(trx, h.store, id);
    const person = await trx
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['users.id', 'users.name'])
      .where('users.id', '=', uid)
      .where('memberships.store_id', '=', h.store)
      .where('users.role', '=', 'staff')
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!person) throw badRequest('Only a salesman of this store can join one of its teams.');
    const already = await trx.selectFrom('team_members').select('user_id').where('team_id', '=', id).where('user_id', '=', uid).executeTakeFirst();
    if (already) throw new ApiError(409, `${person.name} is already on the ${team.name} team.`);
    const top = await trx
      .selectFrom('team_members')
      .select((eb) => eb.fn.max('position').as('max'))
      .where('team_id', '=', id)
      .executeTakeFirst();
    await trx
      .insertInto('team_members')
      .values({ team_id: id, user_id: uid, position: Number(top?.max ?? 0) + 1, created_at: now })
      .execute();
  });
}

export function removeMember(h: StoreDb, id: number, uid: string) {
  return withRotationLock(h, async (trx) => {
    await teamIn(trx, h.store, id);
    const gone = await trx.deleteFrom('team_members').where('team_id', '=', id).where('user_id', '=', uid).executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw notFound('Not on this team');
  });
}

const LABELS = { weight: 'weight', dailyCap: 'daily cap', openCap: 'open-leads cap' } as const;

/** A salesman's weight and caps in the store; each real change goes to his audit log. A new weight starts a fresh turn (nothing owed). */
export function setLimits(h: StoreDb, uid: string, patch: Limits, by: Actor) {
  return withRotationLock(h, async (trx) => {
    const before = await trx
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['memberships.weight', 'memberships.daily_cap', 'memberships.open_cap'])
      .where('users.id', '=', uid)
      .where('memberships.store_id', '=', h.store)
      .where('users.role', '=', 'staff')
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!before) throw notFound('User not found');
    const was = { weight: before.weight, dailyCap: before.daily_cap, openCap: before.open_cap };
    const entries: AuditEntry[] = [];
    for (const k of ['weight', 'dailyCap', 'openCap'] as const) {
      const to = patch[k];
      if (to !== undefined && to !== was[k]) entries.push({ action: `${LABELS[k]} changed`, changes: { [k]: { from: was[k], to } } });
    }
    if (!entries.length) return false;
    const set = {
      ...(patch.weight !== undefined ? { weight: patch.weight } : {}),
      ...(patch.dailyCap !== undefined ? { daily_cap: patch.dailyCap } : {}),
      ...(patch.openCap !== undefined ? { open_cap: patch.openCap } : {}),
    };
    await trx.updateTable('memberships').set(set).where('store_id', '=', h.store).where('user_id', '=', uid).execute();
    if (patch.weight !== undefined && patch.weight !== was.weight) {
      await trx.updateTable('memberships').set({ owed: 0 }).where('store_id', '=', h.store).where('user_id', '=', uid).execute();
      await trx
        .updateTable('team_members')
        .set({ owed: 0 })
        .where('user_id', '=', uid)
        .where('team_id', 'in', (eb) => eb.selectFrom('teams').select('id').where('store_id', '=', h.store))
        .execute();
    }
    await writeAudit(trx, uid, by, entries);
    return true;
  });
}

/** Where a sample lead would go now: the rule it meets, its line and that line's Next Up, read only. */
export async function tryLead(h: StoreDb, input: TraitsInput, now = new Date()): Promise<RoutingTried> {
  const tz = h.tz ?? 'UTC';
  const rules = await loadRules(h.db, h.store);
  const traits: LeadTraits = {
    ...NO_TRAITS,
    source: input.source ?? '',
    key: input.key ?? '',
    mailbox: input.mailbox ?? '',
    condition: conditionOf(input.condition ?? ''),
    make: input.make ?? '',
    language: input.language ?? '',
    comments: input.comments ?? '',
  };
  const routed = route(rules.routing, traits, now, tz);
  const teams = await teamsOf(h.db, h.store);
  const lineId = lineOfTarget(
    routed.to,
    teams.map((t) => Number(t.id)),
  );
  const team = lineId === null ? null : { id: lineId, name: teams.find((t) => Number(t.id) === lineId)?.name ?? '' };
  const env = sqlEnv(now, rules, tz);
  const next = lineId === null ? (await nextUp(h.db, h.store, env, h.dialect)).next : (await nextUpInTeam(h.db, h.store, lineId, env, h.dialect)).next;
  const rule = routed.rule && routed.index !== null ? { index: routed.index, name: routed.rule.name } : null;
  return { rule, line: team ? { team } : 'floor', wouldGet: next ? { id: next.id, name: next.name } : null, why: routedText(rule, team) };
}
