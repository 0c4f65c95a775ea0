// Frozen: the one-call assign as migrations 011, 012, 014 and 016 created it (each created the
// newest version, so a new database and an upgraded one end the same). The app no longer calls it
// (server/rotation/assign-postgres.ts builds its own from the rule book; 021 drops this one).

/** The arguments of 011's version, which 012 replaced, of 012's, which 014 replaced, and of 014's, which 016 replaced. */
export const OLD_ASSIGN_ARGS = 'text, text, text, text, text, text, text, text, text, text, text, bigint, bigint, boolean, text, text';
export const ASSIGN_ARGS_012 = `${OLD_ASSIGN_ARGS}, bigint`;
export const ASSIGN_ARGS_014 = `${ASSIGN_ARGS_012}, boolean`;

/**
 * See 011_postgres_assign_function, 012_speed_to_lead, 014 and 016 (the newest version is created by each,
 * so a new database and an upgraded one end the same); server/rotation/assign-postgres.ts calls it.
 */
export const ASSIGN_FUNCTION = `
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
