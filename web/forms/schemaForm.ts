import { schemaResolver, useForm, type UseFormInput, type UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { useState } from 'react';
import { ApiError } from '../../domain/errors';
import { notifyFail } from '../components/notify';

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
 * Starts fetching the forms' schemas (a form's onFocus): by the time it is sent they are in. Not
 * when the screen is up: starting them (zod and every schema) is a long task on a phone, and most
 * visits to a screen send nothing.
 */
export const loadChecks = () => void checks().catch(() => undefined);

/**
 * Runs a form's submit with the forms' schemas, fetched if not in yet (at once when they are). A
 * fetch that fails (the network is gone) is told as the save's failure, `failed` ("Could not save
 * the pay plan"), and the submit does nothing.
 */
export const withChecks = (failed: string, submit: (c: Checks) => void) => void checks().then(submit, (err: unknown) => notifyFail(failed, err));

/**
 * A form checked by a domain schema (domain/schemas.ts), the one the server parses the same
 * body with: each field shows the first message the server would give for it. `pick` names the
 * schema among the forms' schemas, which are fetched once one of its fields gets focus (a check
 * before they are in waits for them).
 */
export function useSchemaForm<S extends z.ZodType, V extends z.input<S> & Record<string, unknown>>(
  pick: (checks: Checks) => S,
  initialValues: V,
  options: Omit<UseFormInput<V>, 'initialValues' | 'validate' | 'enhanceGetInputProps'> = {},
) {
  const [validate] = useState(() => lazySchemaResolver(async () => pick(await checks())));
  return useForm<V>({
    ...options,
    initialValues,
    validate,
    enhanceGetInputProps: ({ inputProps }) => {
      // Mantine assigns what this returns onto inputProps itself: read its own handler first, or ours calls itself.
      const own = inputProps.onFocus as ((e: unknown) => void) | undefined;
      return {
        onFocus: (e: unknown) => {
          validate.load();
          own?.(e);
        },
      };
    },
  });
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
