import { sql, type Compilable, type CompiledQuery, type RawBuilder } from 'kysely';
import type { Db, Dialect } from '.';

/** A value a reused query takes anew at each run, by name. */
interface Slot {
  readonly slot: string;
}
const isSlot = (v: unknown): v is Slot => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === SlotProto;
const SlotProto = {};

/** A place in a reused query for a value given at each run (`run(..., { [name]: value })`). */
export const slot = <T>(name: string): RawBuilder<T> => sql.val(Object.assign(Object.create(SlotProto) as object, { slot: name }) as T);

/** A row's values as slots of the same names: an insert of it, reused, is one statement per column set. */
export const slotsFor = <T extends Record<string, unknown>>(row: T) =>
  Object.fromEntries(Object.keys(row).map((k) => [k, slot(k)])) as { [K in keyof T]: RawBuilder<T[K]> };

const built = new Map<string, CompiledQuery>();

/**
 * Runs a query built and compiled once per `key` and dialect, its slots filled with `values`.
 * The rotation's questions are built from the rule book on every assign, and building and
 * compiling them cost several times what the database takes to answer them; their text changes
 * only with the rules' switches, which belong in `key`.
 */
export async function reused<R>(db: Db, dialect: Dialect, key: string, build: () => Compilable<R>, values: Record<string, unknown>): Promise<R[]> {
  const k = `${dialect} ${key}`;
  let q = built.get(k) as CompiledQuery<R> | undefined;
  if (!q) built.set(k, (q = build().compile()));
  const parameters = q.parameters.map((p) => {
    if (!isSlot(p)) return p;
    if (!Object.hasOwn(values, p.slot)) throw new Error(`reused query ${key}: no value for ${p.slot}`);
    return values[p.slot];
  });
  return (await db.executeQuery<R>({ ...q, parameters })).rows;
}
