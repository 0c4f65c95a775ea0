import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSession } from '../session/SessionProvider';
import { hasDefaultName } from '../../domain/format';
import { notifyOk } from '../components/notify';
import { messageOf } from '../../domain/errors';
import type { SessionUser } from '../../domain/contract/answers';

const skipKey = (uid: string) => `namePromptSkipped:${uid}`;
const noChange = () => () => undefined;
const skippedHere = (user: SessionUser | null) => !!user && localStorage.getItem(skipKey(user.uid)) === '1';

/**
 * Someone still called by the default name is asked, once, what to call him. Skipping is
 * remembered in this browser; Settings can name him later.
 */
export function NamePrompt() {
  const { user, updateProfileName } = useSession();
  // The server does not know this browser: the page it drew leaves the prompt out until taken over.
  const skippedBefore = useSyncExternalStore(
    noChange,
    () => skippedHere(user),
    () => true,
  );
  const [skippedNow, setSkipped] = useState(false);
  const skipped = skippedBefore || skippedNow;
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Settings has the name field itself.
  const onSettings = useLocation().pathname.endsWith('/dashboard/settings');
  if (!user || skipped || onSettings || !hasDefaultName(user.name)) return null;

  const skip = () => {
    localStorage.setItem(skipKey(user.uid), '1');
    setSkipped(true);
  };
  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await updateProfileName(name);
      notifyOk('Nice to meet you.');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  }
  return (
    <Paper withBorder p="md" radius="md" mt="md" component="section" aria-labelledby="name-prompt-title" data-testid="name-prompt">
      <form onSubmit={(e) => void save(e)}>
        <Stack gap="xs">
          <Title order={2} size="h4" id="name-prompt-title">
            What should we call you?
          </Title>
          <Text size="sm" c="dimmed">
            Your name shows in the queue, on your leads and in the header.
          </Text>
          <Group align="flex-start" gap="sm">
            <TextInput
              label="Your name"
              placeholder="First and last name"
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              maxLength={200}
              style={{ flex: '1 1 200px' }}
            />
            <Group gap="xs" mt={{ base: 0, xs: 25 }}>
              <Button type="submit" loading={saving} disabled={!name.trim()}>
                Save
              </Button>
              <Button variant="subtle" color="gray" onClick={skip}>
                Skip
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
