import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { useStore } from '../stores/store';
import { managerSection, MANAGER_SECTIONS, type ManagerSection } from './sections';

/** A link to a section of Manager in this store, named "Manager → Dealership rules" unless told otherwise; underlined, as a link among words must be. */
export function ManagerLink({ to, children }: { to: ManagerSection; children?: ReactNode }) {
  const { code } = useStore();
  const label = MANAGER_SECTIONS.find((s) => s.id === to)?.label;
  return (
    <Anchor component={Link} to={managerSection(code, to)} inherit underline="always">
      {children ?? `Manager → ${label}`}
    </Anchor>
  );
}
