import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import type { LogEntry } from '../api/rotation';

/**
 * Credit-back for managers: marks an assign up "No customer" (a fake or duplicate lead) after a
 * confirm; its lead is closed as lost and the salesman keeps his turn. Answers the action to
 * hand to the recent actions list.
 */
export function useNoCustomer() {
  const qc = useQueryClient();
  const mark = useMutation({
    mutationFn: (id: number) => call('POST /rotation/log/:id/no-customer', { params: { id } }),
    onSuccess: (r) => notifyOk(r.turnBack ? `${r.targetName} keeps his turn: he is Next Up again.` : `The up of ${r.targetName} no longer counts.`),
    onError: (err) => notifyFail('Could not mark the up', err),
    onSettled: () => qc.invalidateQueries({ queryKey: ['rotation'] }),
  });
  return (e: LogEntry) =>
    modals.openConfirmModal({
      title: 'No customer',
      children: (
        <Text size="sm">{`Mark ${e.customer ?? 'this up'} (${e.targetName}) as No customer? The lead is closed as lost, the up no longer counts, and ${e.targetName} keeps his turn.`}</Text>
      ),
      labels: { confirm: 'No customer', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        if (!mark.isPending) mark.mutate(e.id);
      },
    });
}
