import { Button } from '@mantine/core';
import { IconCheck, IconRotateClockwise } from '@tabler/icons-react';
import { notifyFail } from '../../components/notify';
import { useAcceptLead, useHandOut } from '../../api/leads';
import { may as offers } from './may';
import type { RowProps } from './LeadsList';

/** Mark Closed, or Reopen for whoever may reopen it. */
export function CloseOrReopen({ lead: l, busy, onAct, full = false }: Pick<RowProps, 'lead' | 'busy' | 'onAct'> & { full?: boolean }) {
  if (!(l.closed ? l.can.reopen : l.can.close)) return null;
  return (
    <Button
      size={full ? 'sm' : 'xs'}
      fullWidth={full}
      variant={l.closed ? 'subtle' : 'light'}
      leftSection={l.closed ? <IconRotateClockwise size={16} aria-hidden /> : <IconCheck size={16} aria-hidden />}
      loading={busy}
      onClick={() => onAct(l.id, !l.closed)}
    >
      {l.closed ? 'Reopen' : 'Mark Closed'}
    </Button>
  );
}

/** Accept (the holder's), Hand out (a manager's, for a lead in Unassigned) and Timeline (managers and the holder). */
export function SpeedActions({ lead: l, onOpen }: Pick<RowProps, 'lead' | 'onOpen'>) {
  const may = offers(l);
  const accept = useAcceptLead();
  const handOut = useHandOut();
  return (
    <>
      {may.accept && (
        <Button size="xs" color="orange" onClick={() => accept.mutate(l.id)} loading={accept.isPending}>
          Accept
        </Button>
      )}
      {may.handOut && (
        <Button
          size="xs"
          variant="light"
          onClick={() => handOut.mutate({ id: l.id }, { onError: (err) => notifyFail('Could not hand the lead out', err) })}
          loading={handOut.isPending}
        >
          Hand out
        </Button>
      )}
      {may.timeline && (
        <Button size="xs" variant="subtle" onClick={() => onOpen('timeline', l)}>
          Timeline
        </Button>
      )}
    </>
  );
}
