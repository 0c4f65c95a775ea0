import { schemaResolver, useForm, type UseFormInput, type UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { ApiError } from '../../domain/errors';

/**
 * A form checked by a domain schema (domain/schemas.ts), the one the server parses the same
 * body with: each field shows the first message the server would give for it.
 */
export function useSchemaForm<S extends z.ZodType, V extends z.input<S> & Record<string, unknown>>(
  schema: S,
  initialValues: V,
  options: Omit<UseFormInput<V>, 'initialValues' | 'validate'> = {},
) {
  return useForm<V>({ ...options, initialValues, validate: schemaResolver(schema, { sync: true }) });
}

/**
 * The same check with the schema fetched when first needed (call `load` early, e.g. when the
 * field gets focus): the sign-in page, the first load on a phone, does not carry zod with it.
 * A schema that cannot be fetched checks nothing: the server checks the same and says so.
 */
export function lazySchemaResolver(load: () => Promise<z.ZodType>) {
  let loading: Promise<z.ZodType> | undefined;
  const get = () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const validate = async (values: unknown) => {
    const schema = await get().catch(() => null);
    return schema ? schemaResolver(schema, { sync: true })(values) : {};
  };
  return Object.assign(validate, { load: () => void get().catch(() => undefined) });
}

/** A server refusal about one field goes under that field; answers whether it did. */
export function showFieldError<V extends object>(form: UseFormReturnType<V>, err: unknown): boolean {
  if (!(err instanceof ApiError) || !err.field || !(err.field in form.getValues())) return false;
  form.setFieldError(err.field, err.message);
  return true;
}
