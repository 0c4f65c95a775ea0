import { Component, type ReactNode } from 'react';
import { Alert, Button, Center, Text } from '@mantine/core';
import { TakenOver } from './AfterDraw';

/**
 * A screen that fails to draw (its code did not arrive, say, after an update or on a dropped
 * connection) says so with a Reload, instead of leaving a blank page.
 */
export class ScreenError extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // Chromium, Firefox and Safari each word a screen's code that did not come in their own way.
    const codeMissing = /dynamically imported module|importing a module script failed/i.test(error.message);
    const what = codeMissing ? 'Its code did not arrive: the connection dropped, or the portal was just updated.' : error.message || 'Something went wrong.';
    return (
      <Center mih="100dvh" p="md" component="main">
        <Alert color="red" variant="light" title="This page could not be shown" role="alert" maw={480} data-testid="screen-error">
          <Text size="sm" mb="sm">
            {what} Reload the page; if it happens again, check the connection or tell your manager.
          </Text>
          <Button size="xs" color="red.9" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Alert>
        {/* A page the server drew is the app's now, this message in place of its screen. */}
        <TakenOver />
      </Center>
    );
  }
}
