import { schemaResolver, useForm, type UseFormInput, type UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { useEffect, useState } from 'react';
import { ApiError } from '../../domain/errors';
import { whenIdle } from '../components/idle';

type Checks = (typeof import('./checks'))['schemas'];
let checksLoading: Promise<Checks> | undefined;
/** The forms' schemas (./checks.ts), fetched once; a failed fetch is tried again at the next call. */
export const checks = () =>
  (checksLoading ??= import('./checks').then(
    (m) => m.schemas,
    (err: unknown) => {
      checksLoading = undefined;
      throw err;
    },
  ));

/**
 * A form checked by a domain schema (domain/schemas.ts), the one the server parses the same
 * body with: each field shows the first message the server would give for it. `pick` names the
 * schema among the forms' schemas, which are fetched once the browser is idle after the form
 * appears (a check before that waits for them).
 */
export function useSchemaForm<S extends z.ZodType, V extends z.input<S> & Record<string, unknown>>(
  pick: (checks: Checks) => S,
  initialValues: V,
  options: Omit<UseFormInput<V>, 'initialValues' | 'validate'> = {},
) {
  const [validate] = useState(() => lazySchemaResolver(async () => pick(await checks())));
  useEffect(() => whenIdle(validate.load, 2000), [validate]);
  return useForm<V>({ ...options, initialValues, validate });
}

/**
 * The same check with the schema fetched when first needed (call `load` early, e.g. when the
 * field gets focus): the sign-in page, the first load on a phone, does not carry zod with it.
 * A schema that cannot be fetched checks nothing: the server checks the same and says so.
 */
export function lazySchemaResolver(load: () => Promise<z.ZodType>) {
  let loading: Promise<Check> | undefined;
  let check: Check | undefined;
  const get = () =>
    (loading ??= load().then(
      (schema) => (check = schemaResolver(schema, { sync: true })),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  // Once the schema is in, a check is immediate (as a form's own validate() expects).
  const validate = (values: object) =>
    check?.(values) ??
    get().then(
      (c) => c(values),
      () => ({}),
    );
  return Object.assign(validate, { load: () => void get().catch(() => undefined) });
}
type Check = ReturnType<typeof schemaResolver>;

/** A server refusal about one field goes under that field; answers whether it did. */
export function showFieldError<V extends object>(form: UseFormReturnType<V>, err: unknown): boolean {
  if (!(err instanceof ApiError) || !err.field || !(err.field in form.getValues())) return false;
  form.setFieldError(err.field, err.message);
  return true;
}
