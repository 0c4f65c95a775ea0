import { Badge, Group } from '@mantine/core';
import { useSession } from '../session/SessionProvider';
import { useMailList } from './api';

/** The Leads screen's "Mail to review" choice, with how many wait (live); managers only, staff never see it. */
export function useMailTab() {
  const { isManager } = useSession();
  const q = useMailList('review', isManager);
  const n = q.data?.toReview ?? 0;
  if (!isManager) return [];
  return [
    {
      value: 'mail' as const,
      label: (
        <Group gap={6} wrap="nowrap" justify="center">
          Mail to review
          {n > 0 && (
            <Badge size="sm" color="orange" variant="filled" data-testid="mail-to-review-count" aria-label={`${n} waiting`}>
              {n}
            </Badge>
          )}
        </Group>
      ),
    },
  ];
}
