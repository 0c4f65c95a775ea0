import { useMediaQuery } from '@mantine/hooks';

/** Under 640 px tables become cards. Read at once (not after a first paint), so a phone never draws the table first. */
export const useCompact = () => useMediaQuery('(max-width: 39.99em)', undefined, { getInitialValueInEffect: false });
