import { useState } from 'react';
import { Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { useSellLead, type Lead } from '../../api/leads';
import { useStore } from '../../stores/store';
import { SaleForm } from './SaleForm';

/** His open leads he may sell, newest first: the first page is plenty to choose from. */
function useSellable() {
  const { code: store } = useStore();
  return useQuery({
    queryKey: ['leads', store, 'sellable'],
    queryFn: () => call('GET /leads/mine', { query: { open: 1 }, store }),
    select: (page) => page.leads.filter((l) => l.can.sell),
  });
}

/** A lead's Sold from the tracker: the sale is stored with the lead (once per form), so the funnel counts it. */
function SellLead({ lead, today, onDone }: { lead: Lead; today: string; onDone: () => void }) {
  const [actionId] = useState(() => crypto.randomUUID());
  const sell = useSellLead(lead.id, actionId);
  return (
    <SaleForm initial={{ date: today, vehicleType: 'new', frontGross: '', split: 'full' }} today={today} save={sell} action="Save sale" onSaved={onDone} />
  );
}

/**
 * Add Sale on the tracker: a sale of one of his open leads (it marks the lead Sold, as the lead's
 * own Close does) or, with no lead chosen, a sale with a customer typed or none (a walk-in the
 * portal never saw).
 */
export function AddSale({ today }: { today: string }) {
  const leads = useSellable().data ?? [];
  const [leadId, setLeadId] = useState<string | null>(null);
  const lead = leads.find((l) => String(l.id) === leadId);
  return (
    <Stack gap="sm">
      {leads.length > 0 && (
        <Select
          label="Lead (optional)"
          description="Choose the lead you sold: it is marked Sold with this sale."
          placeholder="No lead: type the customer below"
          data={leads.map((l) => ({ value: String(l.id), label: l.vehicle ? `${l.customer} · ${l.vehicle}` : l.customer }))}
          value={lead ? leadId : null}
          onChange={setLeadId}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {lead ? (
        <>
          <Text size="sm">
            Customer: <b>{lead.customer}</b>
          </Text>
          <SellLead key={lead.id} lead={lead} today={today} onDone={() => setLeadId(null)} />
        </>
      ) : (
        <SaleForm key={today} today={today} initial={{ date: today, vehicleType: 'new', frontGross: '', split: 'full', customer: '' }} />
      )}
    </Stack>
  );
}
