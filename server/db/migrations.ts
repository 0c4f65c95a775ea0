import { Kysely, Migrator, sql, type CreateTableBuilder, type Migration } from 'kysely';
import type { Dialect } from './index';

/**
 * What a migration may rely on: only the columns its own statements read or write, never the
 * app's current schema (which later migrations change). Table DDL goes through db.schema.
 */
interface Then {
  users: { id: string; position: number };
  rotation_state: { id: number; pointer_pos: number };
}
type Db = Kysely<Then>;

/** Migrations live in code so `npm start` needs no files beside the bundle. Append only. */
function migrations(dialect: Dialect): Record<string, Migration> {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const idCol = (t: CreateTableBuilder<string, never>) =>
    dialect === 'postgres' ? t.addColumn('id', serial, (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  return {
    '001_initial': {
      async up(db: Db) {
        await db.schema
          .createTable('users')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull().defaultTo('staff'))
          .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('on_duty', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('snooze_until', big)
          .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('deleted_at', big)
          .addColumn('greeting', 'text')
          .addColumn('notes', 'text')
          .addColumn('signed_in_at', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('users_role_position').on('users').columns(['role', 'position']).execute();

        await db.schema
          .createTable('login_tokens')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('used_at', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('login_tokens_email').on('login_tokens').columns(['email', 'created_at']).execute();

        await db.schema
          .createTable('sessions')
          .addColumn('id_hash', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('rotation_state')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('pointer_pos', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_assigned_to', 'text')
          .addColumn('last_assigned_at', big)
          .addColumn('updated_by', 'text')
          .execute();
        await db.insertInto('rotation_state').values({ id: 1, pointer_pos: 0 }).execute();

        await idCol(db.schema.createTable('rotation_log'))
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('customer', 'text')
          .addColumn('target_id', 'text', (c) => c.notNull())
          .addColumn('target_name', 'text', (c) => c.notNull())
          .addColumn('reason', 'text')
          .addColumn('manager_id', 'text')
          .addColumn('manager_name', 'text', (c) => c.notNull())
          .addColumn('pointer_pos_after', 'integer', (c) => c.notNull())
          .addColumn('lead_id', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('rotation_log_created').on('rotation_log').columns(['created_at', 'id']).execute();

        await idCol(db.schema.createTable('leads'))
          .addColumn('customer', 'text', (c) => c.notNull())
          .addColumn('assigned_to', 'text', (c) => c.notNull())
          .addColumn('assigned_to_name', 'text', (c) => c.notNull())
          .addColumn('assigned_by', 'text')
          .addColumn('assigned_by_name', 'text', (c) => c.notNull())
          .addColumn('assigned_at', big, (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('follow_up_due', big, (c) => c.notNull())
          .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('closed_at', big)
          .addColumn('closed_by_id', 'text')
          .addColumn('closed_by_name', 'text')
          .execute();
        await db.schema.createIndex('leads_assigned_at').on('leads').columns(['assigned_at', 'id']).execute();
        await db.schema.createIndex('leads_open').on('leads').columns(['closed', 'assigned_at']).execute();
        await db.schema.createIndex('leads_assignee').on('leads').columns(['assigned_to', 'assigned_at']).execute();

        await idCol(db.schema.createTable('sales'))
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('rep_name', 'text', (c) => c.notNull())
          .addColumn('date', 'text', (c) => c.notNull())
          .addColumn('vehicle_type', 'text', (c) => c.notNull())
          .addColumn('front_gross_cents', big, (c) => c.notNull())
          .addColumn('plan_type', 'text', (c) => c.notNull())
          .addColumn('plan_percent', 'integer')
          .addColumn('plan_flat', 'integer')
          .addColumn('plan_split', 'real', (c) => c.notNull())
          .addColumn('commission_cents', big, (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('created_by', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sales_user_date').on('sales').columns(['user_id', 'date']).execute();

        await idCol(db.schema.createTable('audit_log'))
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('actor_id', 'text')
          .addColumn('actor_name', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('changes', 'text', (c) => c.notNull())
          .addColumn('at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('audit_log_user').on('audit_log').columns(['user_id', 'at']).execute();
      },
    },
    '004_leads_search': {
      // Search "customers or assignee" by any part of a name, fast over hundreds of thousands
      // of leads: a trigram index on PostgreSQL, an FTS5 trigram table on SQLite.
      async up(db: Db) {
        if (dialect === 'postgres') {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
          if (!rows[0]?.n) return;
          await sql`create extension if not exists pg_trgm`.execute(db);
          await sql`create index leads_search_trgm on leads using gin ((lower(customer) || ' ' || lower(assigned_to_name)) gin_trgm_ops)`.execute(db);
          return;
        }
        await sql`create virtual table leads_fts using fts5(customer, assigned_to_name, content='leads', content_rowid='id', tokenize='trigram')`.execute(db);
        await sql`insert into leads_fts(rowid, customer, assigned_to_name) select id, customer, assigned_to_name from leads`.execute(db);
        await sql`create trigger leads_fts_ai after insert on leads begin
          insert into leads_fts(rowid, customer, assigned_to_name) values (new.id, new.customer, new.assigned_to_name); end`.execute(db);
        await sql`create trigger leads_fts_ad after delete on leads begin
          insert into leads_fts(leads_fts, rowid, customer, assigned_to_name) values ('delete', old.id, old.customer, old.assigned_to_name); end`.execute(db);
        await sql`create trigger leads_fts_au after update of customer, assigned_to_name on leads begin
          insert into leads_fts(leads_fts, rowid, customer, assigned_to_name) values ('delete', old.id, old.customer, old.assigned_to_name);
          insert into leads_fts(rowid, customer, assigned_to_name) values (new.id, new.customer, new.assigned_to_name); end`.execute(db);
      },
    },
    '005_intake': {
      // Leads from integrations. An unassigned lead keeps assigned_to = '' rather than NULL:
      // SQLite cannot drop NOT NULL in place, and rebuilding leads would mean rebuilding its
      // indexes and 004's FTS triggers; '' matches no user, so every per-assignee query
      // already leaves it out.
      async up(db: Db) {
        // SQLite takes one ADD COLUMN per statement.
        for (const col of ['phone', 'email', 'vehicle', 'vin', 'comments', 'external_source', 'external_id']) {
          await db.schema.alterTable('leads').addColumn(col, 'text').execute();
        }
        // NULLs are distinct in a unique index on both dialects: only leads with a prospect id count.
        await db.schema.createIndex('leads_external').on('leads').columns(['external_source', 'external_id']).unique().execute();

        await idCol(db.schema.createTable('api_keys'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('prefix', 'text', (c) => c.notNull())
          .addColumn('created_by', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('last_used_at', big)
          .addColumn('revoked_at', big)
          .execute();

        await db.schema
          .createTable('idempotency_keys')
          .addColumn('api_key_id', big, (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('status', 'integer')
          .addColumn('body', 'text')
          .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key'])
          .execute();
        await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
      },
    },
    '006_waiting_leads_index': {
      // "The oldest lead still waiting" is asked before every Assign; without this index the
      // planner walks every open lead to find none.
      async up(db: Db) {
        await db.schema.createIndex('leads_waiting').on('leads').columns(['assigned_to', 'closed', 'assigned_at', 'id']).execute();
      },
    },
    '007_unique_positions': {
      // Simultaneous first sign-ins once read the same max(position) and shared a place, so the
      // second holder was always passed over. Renumber 1..n in today's order (position, then id,
      // as the queue sorts), move the pointer so the same person stays Next Up, and make places
      // unique from now on. Also: one result per manager action (a double-click assigns once).
      async up(db: Db) {
        const users = await db.selectFrom('users').select(['id', 'position']).orderBy('position').orderBy('id').execute();
        const { pointer_pos: pointer } = await db.selectFrom('rotation_state').select('pointer_pos').where('id', '=', 1).executeTakeFirstOrThrow();
        for (const [i, u] of users.entries())
          await db
            .updateTable('users')
            .set({ position: i + 1 })
            .where('id', '=', u.id)
            .execute();
        const before = users.filter((u) => u.position <= pointer).length;
        await db.updateTable('rotation_state').set({ pointer_pos: before }).where('id', '=', 1).execute();
        await db.schema.createIndex('users_position').on('users').column('position').unique().execute();

        await db.schema
          .createTable('rotation_actions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('request', 'text', (c) => c.notNull())
          .addColumn('result', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('rotation_actions_created').on('rotation_actions').column('created_at').execute();
      },
    },
    '008_intake_request_hash': {
      // A retry with the same Idempotency-Key must be the same request; null on older rows.
      async up(db: Db) {
        await db.schema.alterTable('idempotency_keys').addColumn('request_hash', 'text').execute();
      },
    },
    '008_leads_search_per_column': {
      // Search matches inside the customer or inside the assignee, as SQLite's full-text table
      // does; the index on both joined together also matched across the two.
      async up(db: Db) {
        if (dialect !== 'postgres') return;
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
        if (!rows[0]?.n) return;
        await sql`drop index if exists leads_search_trgm`.execute(db);
        await sql`create index leads_customer_trgm on leads using gin (lower(customer) gin_trgm_ops)`.execute(db);
        await sql`create index leads_assignee_trgm on leads using gin (lower(assigned_to_name) gin_trgm_ops)`.execute(db);
      },
    },
    '009_outbox_and_limits': {
      // Mail waits here until a background sender delivers it (state waiting, then sent or
      // failed; dropped for a link request that sends nothing). body is sealed with the
      // session secret and emptied once sent. Rate-limit counters live here too, so every app
      // server on one database counts the same hits.
      async up(db: Db) {
        await idCol(db.schema.createTable('outbox'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('recipient', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_at', big, (c) => c.notNull())
          .addColumn('lease_until', big)
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('last_error', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('done_at', big)
          .execute();
        await db.schema.createIndex('outbox_due').on('outbox').columns(['state', 'next_at']).execute();
        await db.schema.createIndex('outbox_done').on('outbox').columns(['done_at']).execute();

        await db.schema
          .createTable('rate_limits')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('hits', 'integer', (c) => c.notNull())
          .addColumn('reset_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('rate_limits_reset').on('rate_limits').column('reset_at').execute();
        await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
        await db.schema.createIndex('login_tokens_expires').on('login_tokens').column('expires_at').execute();
      },
    },
    '010_adf_as_sent': {
      // A reused ADF <id> is not a repeat by itself (senders put the lead type or a constant
      // there): the same id from the same key is a repeat only for the same customer, so the
      // unique index becomes a plain one that also holds the folded customer name. Trade-ins, a
      // "name missing" flag and the document as it came in are kept with the lead.
      async up(db: Db) {
        for (const [col, type] of [
          ['customer_key', 'text'],
          ['trade_in', 'text'],
          ['document_id', big],
        ] as const) {
          await db.schema.alterTable('leads').addColumn(col, type).execute();
        }
        await db.schema
          .alterTable('leads')
          .addColumn('name_missing', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`update leads set customer_key = lower(trim(customer)) where external_id is not null`.execute(db);
        await db.schema.dropIndex('leads_external').ifExists().execute();
        await db.schema.createIndex('leads_external').on('leads').columns(['external_source', 'external_id', 'customer_key']).execute();
        await idCol(db.schema.createTable('intake_documents'))
          .addColumn('api_key_id', big, (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
      },
    },
    '011_postgres_assign_function': {
      // On PostgreSQL an assign is one statement: this function locks the rotation state, replays
      // an action id already seen, returns the lead a prospect id already made, picks the next
      // eligible salesman (the rules of domain/rotation.ts), stores the lead, logs it and moves
      // the pointer, all in the caller's single round trip. SQLite runs the same steps in process.
      async up(db: Db) {
        if (dialect !== 'postgres') return;
        await sql.raw(ASSIGN_FUNCTION).execute(db);
      },
    },
    '012_speed_to_lead': {
      // A lead waits for its salesman's Accept until accept_due; the sweep hands on what is
      // overdue (a partial index: only leads still waiting are in it). Each lead's timeline and
      // the dealership rules' changes are kept.
      async up(db: Db) {
        for (const col of ['offered_at', 'accept_due', 'accepted_at', 'first_contact_at']) await db.schema.alterTable('leads').addColumn(col, big).execute();
        await db.schema
          .alterTable('leads')
          .addColumn('handoffs', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`create index leads_accept_due on leads (accept_due) where accept_due is not null`.execute(db);
        await db.schema.createIndex('leads_accepted_at').on('leads').column('accepted_at').execute();
        await db.schema.createIndex('leads_first_contact_at').on('leads').column('first_contact_at').execute();
        await db.schema
          .createTable('lead_events')
          .$call(idCol)
          .addColumn('lead_id', big, (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('actor_id', 'text')
          .addColumn('actor_name', 'text', (c) => c.notNull())
          .addColumn('channel', 'text')
          .addColumn('note', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('lead_events_lead').on('lead_events').columns(['lead_id', 'id']).execute();
        await db.schema.createIndex('lead_events_type_at').on('lead_events').columns(['type', 'created_at']).execute();
        await db.schema
          .createTable('rules_audit')
          .$call(idCol)
          .addColumn('actor_id', 'text')
          .addColumn('actor_name', 'text', (c) => c.notNull())
          .addColumn('changes', 'text', (c) => c.notNull())
          .addColumn('at', big, (c) => c.notNull())
          .execute();
        if (dialect === 'postgres') {
          // The one-call assign also starts the Accept window (011's version took no window).
          await sql.raw(`drop function if exists bdc_assign_next(${OLD_ASSIGN_ARGS})`).execute(db);
          await sql.raw(ASSIGN_FUNCTION).execute(db);
        }
      },
    },
    '013_be_backs': {
      // A returning customer's lead goes to the salesman he asks for, outside the rotation.
      async up(db: Db) {
        await db.schema
          .alterTable('leads')
          .addColumn('be_back', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '014_hold_out_in_assign': {
      // The one-call assign also holds out salesmen with past-due follow-ups when the rule is on.
      async up(db: Db) {
        if (dialect !== 'postgres') return;
        await sql.raw(`drop function if exists bdc_assign_next(${ASSIGN_ARGS_012})`).execute(db);
        await sql.raw(ASSIGN_FUNCTION).execute(db);
      },
    },
    '015_floor_days': {
      // One row per day the floor closed: its key makes the closing (everyone off duty, the
      // report mailed) happen once however many app servers see the hour come.
      async up(db: Db) {
        await db.schema
          .createTable('floor_days')
          .addColumn('day', 'text', (c) => c.primaryKey())
          .addColumn('closed_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('leads_closed_at').on('leads').column('closed_at').execute();
      },
    },
    '016_assign_asks_first': {
      // The one-call assign also answers, under the lock and before acting, when the rules the
      // app server remembers are no longer the stored ones or when leads wait in Unassigned (they
      // go out first), names the salesman's address for his mail, and sends the live-update
      // notifications it is given with its commit: no statements around the call.
      async up(db: Db) {
        if (dialect !== 'postgres') return;
        await sql.raw(`drop function if exists bdc_assign_next(${ASSIGN_ARGS_014})`).execute(db);
        await sql.raw(ASSIGN_FUNCTION).execute(db);
      },
    },
  };
}

/** The arguments of 011's version, which 012 replaced, of 012's, which 014 replaced, and of 014's, which 016 replaced. */
const OLD_ASSIGN_ARGS = 'text, text, text, text, text, text, text, text, text, text, text, bigint, bigint, boolean, text, text';
const ASSIGN_ARGS_012 = `${OLD_ASSIGN_ARGS}, bigint`;
const ASSIGN_ARGS_014 = `${ASSIGN_ARGS_012}, boolean`;

/**
 * See 011_postgres_assign_function, 012_speed_to_lead, 014 and 016 (the newest version is created by each,
 * so a new database and an upgraded one end the same); server/rotation/assign-postgres.ts calls it.
 */
const ASSIGN_FUNCTION = `
create or replace function bdc_assign_next(
  p_customer text, p_phone text, p_email text, p_vehicle text, p_vin text, p_comments text,
  p_source text, p_ext_source text, p_ext_id text, p_by_id text, p_by_name text,
  p_at bigint, p_follow_up_due bigint, p_keep boolean, p_action_id text, p_request text, p_accept_due bigint,
  p_hold_out boolean, p_rules text, p_waiting_first boolean, p_max_handoffs integer, p_channel text, p_events text[]
) returns json language plpgsql as $fn$
declare
  v_pointer integer;
  v_to text;
  v_seen rotation_actions%rowtype;
  v_lead leads%rowtype;
  v_next users%rowtype;
  v_has_next boolean;
  v_id bigint;
  v_result json;
begin
  -- The same lock every rotation change takes (withRotationLock).
  select pointer_pos into strict v_pointer from rotation_state where id = 1 for update;
  -- The rules the caller remembers, as stored ('' when none are: the defaults); null: not checked.
  if p_rules is not null and p_rules <> coalesce((select value from settings where key = 'rules'), '') then
    return json_build_object('error', 'rules_changed');
  end if;
  -- Leads waiting in Unassigned go out before a new one: the caller hands them out, then asks again.
  if p_waiting_first and exists (select 1 from leads where assigned_to = '' and closed = 0 and handoffs < p_max_handoffs) then
    return json_build_object('error', 'waiting');
  end if;
  if p_action_id is not null then
    select * into v_seen from rotation_actions where id = p_action_id;
    if found then
      if v_seen.request <> p_request then
        return json_build_object('error', 'action_reused');
      end if;
      return json_build_object('replayed', true, 'result', v_seen.result::json);
    end if;
  end if;

  if p_ext_source is not null and p_ext_id is not null then
    select * into v_lead from leads where external_source = p_ext_source and external_id = p_ext_id;
    if found then
      v_result := json_build_object(
        'leadId', v_lead.id, 'customer', v_lead.customer,
        'assignedTo', case when v_lead.assigned_to <> '' then json_build_object('id', v_lead.assigned_to, 'name', v_lead.assigned_to_name) end,
        'pointerPos', v_pointer, 'duplicate', true);
    end if;
  end if;

  if v_result is null then
    -- Eligible: staff, active, on duty, not disabled, not deleted, not snoozed. Next: the first
    -- eligible after the pointer, else the first eligible.
    select * into v_next from users
      where role = 'staff' and active = 1 and on_duty = 1 and disabled = 0 and deleted_at is null
        and (snooze_until is null or snooze_until <= p_at)
        and (not p_hold_out or not exists (
          select 1 from leads l where l.assigned_to = users.id and l.closed = 0 and l.first_contact_at is null and l.follow_up_due <= p_at))
      order by (position > v_pointer) desc, position, id
      limit 1;
    v_has_next := found;
    if not v_has_next and not p_keep then
      return json_build_object('error', 'none_eligible');
    end if;
    insert into leads (customer, assigned_to, assigned_to_name, assigned_by, assigned_by_name, assigned_at, status,
                       follow_up_due, closed, source, closed_at, closed_by_id, closed_by_name,
                       phone, email, vehicle, vin, comments, external_source, external_id, offered_at, accept_due)
      values (p_customer, coalesce(v_next.id, ''), coalesce(v_next.name, ''), p_by_id, p_by_name, p_at,
              case when v_has_next then 'handed' else 'new' end, p_follow_up_due, 0, p_source, null, null, null,
              p_phone, p_email, p_vehicle, p_vin, p_comments, p_ext_source, p_ext_id,
              case when v_has_next then p_at end, case when v_has_next then p_accept_due end)
      returning id into v_id;
    if v_has_next then
      insert into rotation_log (type, customer, target_id, target_name, reason, manager_id, manager_name, pointer_pos_after, lead_id, created_at)
        values ('assign', p_customer, v_next.id, v_next.name, null, p_by_id, p_by_name, v_next.position, v_id, p_at);
      update rotation_state set pointer_pos = v_next.position, last_assigned_to = v_next.id, last_assigned_at = p_at, updated_by = p_by_id
        where id = 1;
      v_pointer := v_next.position;
      v_to := v_next.email;
    end if;
    v_result := json_build_object(
      'leadId', v_id, 'customer', p_customer,
      'assignedTo', case when v_has_next then json_build_object('id', v_next.id, 'name', v_next.name) end,
      'pointerPos', v_pointer, 'duplicate', false);
    -- A new lead: open screens hear of it when it commits.
    if p_events is not null then
      perform pg_notify(p_channel, e) from unnest(p_events) as e;
    end if;
  end if;

  if p_action_id is not null then
    insert into rotation_actions (id, request, result, created_at) values (p_action_id, p_request, v_result::text, (extract(epoch from clock_timestamp()) * 1000)::bigint);
  end if;
  return json_build_object('assigned', v_result, 'to', v_to);
end
$fn$`;

export async function migrate<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider: { getMigrations: async () => migrations(dialect) },
    // Migrations are independent of each other; a database may have met them in another order.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
