/**
 * A rule about a row, written once as data. The domain evaluates it on plain objects (`holds`);
 * the server compiles the same value to SQL (server/rotation/sql.ts), so the database applies the
 * very rule the domain does and no second copy is kept by hand (rotation.test.ts and
 * server/rotation/differential.test.ts prove the paths agree).
 *
 * Each leaf is null-safe on both sides: a missing value never satisfies `eq`, `ne`, `below` or
 * `due`, and SQL's unknown is compiled away, so `not` means the same in SQL as here.
 */
export type Value = string | number | boolean;
export type Field<R> = keyof R & string;
export type Cond<R> =
  | { eq: Field<R>; to: Value }
  | { ne: Field<R>; to: Value }
  | { below: Field<R>; than: number }
  /** Both set, and the first less than the second (a count under a person's own cap). */
  | { lt: Field<R>; of: Field<R> }
  /** Set, and at or before the moment the rule is asked about ("now"). */
  | { due: Field<R> }
  | { isNull: Field<R> }
  | { all: Cond<R>[] }
  | { any: Cond<R>[] }
  | { not: Cond<R> };

export const eq = <R>(field: Field<R>, to: Value): Cond<R> => ({ eq: field, to });
export const ne = <R>(field: Field<R>, to: Value): Cond<R> => ({ ne: field, to });
export const below = <R>(field: Field<R>, than: number): Cond<R> => ({ below: field, than });
export const lt = <R>(field: Field<R>, of: Field<R>): Cond<R> => ({ lt: field, of });
export const due = <R>(field: Field<R>): Cond<R> => ({ due: field });
export const isNull = <R>(field: Field<R>): Cond<R> => ({ isNull: field });
export const all = <R>(...of: Cond<R>[]): Cond<R> => ({ all: of });
export const any = <R>(...of: Cond<R>[]): Cond<R> => ({ any: of });
export const not = <R>(of: Cond<R>): Cond<R> => ({ not: of });

type Scalar = string | number | boolean | Date | null | undefined;

/** A row's value as the database stores it: a date is its epoch milliseconds, a flag 1 or 0. */
const stored = (v: Scalar): number | string | null => {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
};

/** Whether `row` satisfies `cond` at `now`. */
export function holds<R extends { [K in keyof R]: Scalar }>(cond: Cond<R>, row: R, now: Date): boolean {
  const get = (f: Field<R>) => stored(row[f]);
  if ('eq' in cond) return get(cond.eq) !== null && get(cond.eq) === stored(cond.to);
  if ('ne' in cond) return get(cond.ne) !== null && get(cond.ne) !== stored(cond.to);
  if ('below' in cond) {
    const v = get(cond.below);
    return v !== null && Number(v) < cond.than;
  }
  if ('lt' in cond) {
    const [a, b] = [get(cond.lt), get(cond.of)];
    return a !== null && b !== null && Number(a) < Number(b);
  }
  if ('due' in cond) {
    const v = get(cond.due);
    return v !== null && Number(v) <= now.getTime();
  }
  if ('isNull' in cond) return get(cond.isNull) === null;
  if ('all' in cond) return cond.all.every((c) => holds(c, row, now));
  if ('any' in cond) return cond.any.some((c) => holds(c, row, now));
  return !holds(cond.not, row, now);
}

/** One key of an order: a field ascending, or whether a field is above a reference value, true first. */
export type OrderKey<R> = { field: Field<R> } | { above: Field<R>; ref: 'pointer' };

/** Sorts by the keys in turn, as `order by` does (ids and other text by their code units, as the databases' C collation orders them). */
export function compare<R extends object>(keys: OrderKey<R>[], refs: { pointer: number }) {
  return (a: R, b: R): number => {
    for (const k of keys) {
      const [x, y] = 'above' in k ? [Number(a[k.above]) > refs[k.ref] ? 0 : 1, Number(b[k.above]) > refs[k.ref] ? 0 : 1] : [a[k.field], b[k.field]];
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
}
