import { Button } from '@mantine/core';
import { IconCalendarEvent, IconFlag, IconPhoneCall, IconRotateClockwise } from '@tabler/icons-react';
import { notifyFail } from '../../components/notify';
import { useAcceptLead, useHandOut, useLeadStep } from '../../api/leads';
import { may as offers } from './may';
import type { RowProps } from './LeadsList';

/**
 * The lead's next steps, the most pressing first: Accept while it waits, Log contact, Set appointment, Shown or No-show
 * while an appointment is set, Mark Closed (Sold or Lost), Reopen a lost or closed lead.
 */
export function StageActions({ lead: l, onOpen }: Pick<RowProps, 'lead' | 'onOpen'>) {
  const may = offers(l);
  const step = useLeadStep();
  const accept = useAcceptLead();
  const busy = step.isPending;
  return (
    <>
      {may.accept && (
        <Button size="xs" color="orange" onClick={() => accept.mutate(l)} loading={accept.isPending}>
          Accept
        </Button>
      )}
      {may.contact && (
        <Button size="xs" leftSection={<IconPhoneCall size={14} aria-hidden />} onClick={() => onOpen('contact', l)}>
          Log contact
        </Button>
      )}
      {may.appointment && (
        <Button size="xs" variant="light" leftSection={<IconCalendarEvent size={14} aria-hidden />} onClick={() => onOpen('appointment', l)}>
          {l.stage === 'appointment' ? 'Move appointment' : 'Set appointment'}
        </Button>
      )}
      {may.markShown && l.stage === 'appointment' && (
        <>
          <Button size="xs" variant="light" color="teal" loading={busy} onClick={() => step.mutate({ id: l.id, step: 'shown', body: { shown: true } })}>
            Shown
          </Button>
          <Button size="xs" variant="subtle" color="gray" loading={busy} onClick={() => step.mutate({ id: l.id, step: 'shown', body: { shown: false } })}>
            No-show
          </Button>
        </>
      )}
      {may.close && (
        <Button size="xs" variant="light" color="grape" leftSection={<IconFlag size={14} aria-hidden />} onClick={() => onOpen('close', l)}>
          Mark Closed
        </Button>
      )}
      {may.reopen && (
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconRotateClockwise size={14} aria-hidden />}
          loading={busy}
          onClick={() => step.mutate({ id: l.id, step: 'reopen' })}
        >
          Reopen
        </Button>
      )}
    </>
  );
}

/** Hand out (a manager's, for a lead in Unassigned) and Timeline (managers and the holder). */
export function SpeedActions({ lead: l, onOpen }: Pick<RowProps, 'lead' | 'onOpen'>) {
  const may = offers(l);
  const handOut = useHandOut();
  return (
    <>
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
