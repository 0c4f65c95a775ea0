import { useMemo, useState } from 'react';
import { SaveCancel } from '../components/SaveCancel';
import { Alert, Modal, Select, Stack, TextInput } from '@mantine/core';
import { messageOf } from '../../domain/errors';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { APP_TIMEZONE } from '../api/meta';
import { useSaveStore, type Store } from './api';

/** Every zone this browser knows (IANA names), with the one a store already has even if it is an old alias. */
function useZones(current: string) {
  return useMemo(() => {
    const all = Intl.supportedValuesOf('timeZone');
    return all.includes(current) ? all : [current, ...all];
  }, [current]);
}

/** "Add store" (no store) or "Edit store": its name and time zone; the code, once given, stays. */
export function StoreDialog({ store, opened, onClose }: { store: Store | null; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={store ? 'Edit store' : 'Add store'} closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* Keyed so each opening starts from the store's current values. */}
      {opened && <StoreForm key={store?.code ?? 'new'} store={store} onClose={onClose} />}
    </Modal>
  );
}

function StoreForm({ store, onClose }: { store: Store | null; onClose: () => void }) {
  // A store's code is checked as it was when it was added; an edit sends only name and time zone.
  const form = useSchemaForm((c) => c.storeSchema, {
    name: store?.name ?? '',
    code: store?.code ?? '',
    timezone: store?.timezone ?? APP_TIMEZONE,
  });
  const zones = useZones(form.getValues().timezone);
  const [failed, setFailed] = useState<string | null>(null);
  const save = useSaveStore(store?.code ?? null, onClose);
  const submit = form.onSubmit((v) => {
    setFailed(null);
    save.mutate(v, { onError: (err) => showFieldError(form, err) || setFailed(messageOf(err) || 'The store could not be saved.') });
  });
  return (
    <form onSubmit={submit} noValidate aria-label={store ? 'Edit store' : 'Add store'}>
      <Stack gap="sm">
        <TextInput label="Name" placeholder="e.g. Northside Honda" withAsterisk {...form.getInputProps('name')} maxLength={80} data-autofocus />
        <TextInput
          label="Code"
          description={
            store ? 'A store keeps its code: it is in every address and link to it.' : 'Short, in the address of its screens: 2 to 8 letters or digits.'
          }
          placeholder="e.g. NSH"
          withAsterisk={!store}
          {...form.getInputProps('code')}
          onChange={(e) => form.setFieldValue('code', e.currentTarget.value.toUpperCase())}
          disabled={!!store}
          maxLength={8}
          autoComplete="off"
        />
        <Select
          label="Time zone"
          description="The store's clock: today, business hours and reports."
          withAsterisk
          searchable
          allowDeselect={false}
          nothingFoundMessage="No such time zone"
          data={zones}
          limit={50}
          {...form.getInputProps('timezone')}
          comboboxProps={{ withinPortal: true }}
        />
        {failed && (
          <Alert color="red" role="alert" data-testid="store-error">
            {failed}
          </Alert>
        )}
        <SaveCancel onCancel={onClose} saving={save.isPending} />
      </Stack>
    </form>
  );
}
