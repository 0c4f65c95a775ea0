import { useState } from 'react';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useInBrowser } from '../components/AfterDraw';
import { alertPermission, askForAlerts, type AlertPermission } from './alerts';

const STATE: Record<AlertPermission, string> = {
  granted: 'On: this browser tells you of a new lead while the portal is in the background.',
  denied: 'Blocked: allow notifications for this site in the browser’s site settings, then come back.',
  default: 'Off: turn them on to hear of a new lead while the portal is in the background.',
  unsupported: 'This browser cannot show notifications. On a phone, add the portal to the home screen first.',
};

/** Settings → New-lead notifications: the browser asks once, when he chooses to. */
export function AlertsSetting() {
  const inBrowser = useInBrowser();
  const [asked, setPermission] = useState<AlertPermission | null>(null);
  const permission = asked ?? (inBrowser ? alertPermission() : null);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          New-lead notifications
        </Title>
        <Text size="sm" c="dimmed" data-testid="alerts-state">
          {permission ? STATE[permission] : '\u00a0'}
        </Text>
        {permission === 'default' && (
          <Button variant="light" onClick={() => void askForAlerts().then(setPermission)}>
            Turn on notifications
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
