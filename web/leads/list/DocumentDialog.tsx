import { Code, Modal, ScrollArea, Skeleton, Text } from '@mantine/core';
import { useLeadDocument, type Lead } from '../../api/leads';

/** The ADF document as it came in, shown as text (React escapes it), for managers. */
export function DocumentDialog({ lead, opened, onClose }: { lead: Lead; opened: boolean; onClose: () => void }) {
  const doc = useLeadDocument(lead.id, opened);
  return (
    <Modal opened={opened} onClose={onClose} title={`ADF document: ${lead.customer}`} size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
      {doc.isPending ? (
        <Skeleton h={120} />
      ) : doc.isError ? (
        <Text c="red">{doc.error.message}</Text>
      ) : (
        <ScrollArea.Autosize mah="70vh">
          <Code block data-testid="lead-document">
            {doc.data.document}
          </Code>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}
