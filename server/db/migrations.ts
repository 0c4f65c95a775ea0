import { Kysely, Migrator, type Migration } from 'kysely';
import type { Dialect } from './index';
import m001 from './migrations/001_initial';
import m004 from './migrations/004_leads_search';
import m005 from './migrations/005_intake';
import m006 from './migrations/006_waiting_leads_index';
import m007 from './migrations/007_unique_positions';
import m008 from './migrations/008_intake_request_hash';
import m008b from './migrations/008_leads_search_per_column';
import m009 from './migrations/009_outbox_and_limits';
import m010 from './migrations/010_adf_as_sent';
import m011 from './migrations/011_postgres_assign_function';
import m012 from './migrations/012_speed_to_lead';
import m013 from './migrations/013_be_backs';
import m014 from './migrations/014_hold_out_in_assign';
import m015 from './migrations/015_floor_days';
import m016 from './migrations/016_assign_asks_first';
import m021 from './migrations/021_assign_from_rule_book';
import m022 from './migrations/022_email_changes';
import m023, { type FirstStore } from './migrations/023_stores';
import m024 from './migrations/024_dealer_mappings';
import m025 from './migrations/025_lead_stages';
import m026 from './migrations/026_pay_plans';
import m027 from './migrations/027_funnel';
import m028 from './migrations/028_desk_log';
import m029 from './migrations/029_mail_intake';
import m030 from './migrations/030_notices';
import m031 from './migrations/031_routing';
import m032 from './migrations/032_signin';
import m033 from './migrations/033_unassigned_leads_index';
import m034 from './migrations/034_pending_job_indexes';
import m035 from './migrations/035_partial_lead_indexes';
import m036 from './migrations/036_email_change_kinds';
import m038 from './migrations/038_small_doors';
import m040 from './migrations/040_tv_links';
import m041 from './migrations/041_closed_before_stages';
import m042 from './migrations/042_search_without_accents';
import m043 from './migrations/043_rotation_log_by_lead';

/** The first store when nothing names it: what a database made before stores becomes. */
export const FIRST_STORE: FirstStore = { name: 'Main store', code: 'MAIN', timezone: 'America/New_York' };

/**
 * Migrations live in code so `npm start` needs no files beside the bundle: one file each under
 * migrations/, frozen once released. Never edit one; append the next.
 */
function migrations(dialect: Dialect, first: FirstStore): Record<string, Migration> {
  return {
    '001_initial': m001(dialect),
    '004_leads_search': m004(dialect),
    '005_intake': m005(dialect),
    '006_waiting_leads_index': m006(),
    '007_unique_positions': m007(dialect),
    '008_intake_request_hash': m008(),
    '008_leads_search_per_column': m008b(dialect),
    '009_outbox_and_limits': m009(dialect),
    '010_adf_as_sent': m010(dialect),
    '011_postgres_assign_function': m011(dialect),
    '012_speed_to_lead': m012(dialect),
    '013_be_backs': m013(),
    '014_hold_out_in_assign': m014(dialect),
    '015_floor_days': m015(dialect),
    '016_assign_asks_first': m016(dialect),
    '021_assign_from_rule_book': m021(dialect),
    '022_email_changes': m022(dialect),
    '023_stores': m023(dialect, first),
    '024_dealer_mappings': m024(dialect),
    '025_lead_stages': m025(dialect),
    '026_pay_plans': m026(dialect),
    '027_funnel': m027(dialect),
    '028_desk_log': m028(dialect),
    '029_mail_intake': m029(dialect),
    '030_notices': m030(dialect),
    '031_routing': m031(dialect),
    '032_signin': m032(dialect),
    '033_unassigned_leads_index': m033(),
    '034_pending_job_indexes': m034(),
    '035_partial_lead_indexes': m035(),
    '036_email_change_kinds': m036(),
    '038_small_doors': m038(dialect),
    '040_tv_links': m040(dialect),
    '041_closed_before_stages': m041(),
    '042_search_without_accents': m042(dialect),
    '043_rotation_log_by_lead': m043(),
  };
}

/** Every migration's name, oldest first. */
export const migrationNames = (dialect: Dialect) => Object.keys(migrations(dialect, FIRST_STORE)).sort();

export async function migrate<T>(db: Kysely<T>, dialect: Dialect, first: FirstStore = FIRST_STORE): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect, first) },
    // Migrations are independent of each other; a database may have met them in another order.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
