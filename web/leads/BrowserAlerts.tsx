import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { useInBrowser } from '../components/AfterDraw';
import { alertPermission, askForAlerts, type AlertPermission } from './alerts';

const STATE: Record<AlertPermission, string> = {
  granted: 'On: this browser tells you of a new lead while the portal is in the background.',
  denied: 'Blocked: allow notifications for this site in the browser’s site settings, then come back.',
  default: 'Off: turn them on to hear of a new lead while the portal is in the background.',
  unsupported: 'This browser cannot show notifications. On a phone, add the portal to the home screen first.',
};

/**
 * Settings → Notifications on this device, in a browser without push: the browser tells of a new
 * lead while the portal is open in the background, once he allows it (it asks when he chooses to).
 */
export function BrowserAlerts() {
  const inBrowser = useInBrowser();
  const [asked, setPermission] = useState<AlertPermission | null>(null);
  const permission = asked ?? (inBrowser ? alertPermission() : null);
  return (
    <>
      <Text size="sm" c="dimmed" data-testid="alerts-state">
        {permission ? STATE[permission] : '\u00a0'}
      </Text>
      {permission === 'default' && (
        <Button variant="light" onClick={() => void askForAlerts().then(setPermission)}>
          Turn on
        </Button>
      )}
    </>
  );
}
