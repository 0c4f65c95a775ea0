import { useState } from 'react';
import { Button, Paper, Skeleton, Stack, Text, TextInput, Title, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { notifyOk } from '../components/notify';
import { PageTitle } from '../components/PageTitle';
import { useInBrowser } from '../components/AfterDraw';
import { useSession } from '../session/SessionProvider';
import { PUSH_DEVICES_KEY, PushSetting } from '../notices/PushSetting';
import { MOBILE_KEY, MobileSetting } from '../notices/MobileSetting';
import { NOTIFY_KEY, NoticeChoices } from '../notices/NoticeChoices';
import { AvailabilityCard, availabilityKey } from '../availability/AvailabilityCard';
import { useStore } from '../stores/store';
import { PASSKEYS_KEY, PasskeysCard } from '../passkeys/PasskeysCard';
import { DevicesCard, SESSIONS_KEY } from '../sessions/DevicesCard';
import { useFirstAnswers } from '../components/firstAnswers';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { messageOf } from '../../domain/errors';

/** What the cards below ask for first: they show together once it is in (useFirstAnswers). */
const FIRST = [PUSH_DEVICES_KEY, MOBILE_KEY, NOTIFY_KEY, PASSKEYS_KEY, SESSIONS_KEY];

export default function SettingsPage() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  // The scheme saved on this device is the browser's to tell.
  const inBrowser = useInBrowser();
  const { user, updateProfileName } = useSession();
  const { code } = useStore();
  // A salesman's own availability is among them.
  const ready = useFirstAnswers(user?.role === 'staff' ? [...FIRST, availabilityKey(code, user.uid)] : FIRST);
  const form = useSchemaForm((c) => c.profileSchema, { name: user?.name ?? '', greeting: user?.profile.greeting ?? '' });
  const [saving, setSaving] = useState(false);

  // A change saved elsewhere (another tab) shows here too.
  const saved = `${user?.name ?? ''}\n${user?.profile.greeting ?? ''}`;
  const [shown, setShown] = useState(saved);
  if (saved !== shown) {
    setShown(saved);
    form.setValues({ name: user?.name ?? '', greeting: user?.profile.greeting ?? '' });
  }

  const save = form.onSubmit(async ({ name, greeting }) => {
    setSaving(true);
    try {
      await updateProfileName(name, greeting.trim() || null);
      notifyOk('Profile saved.');
    } catch (err) {
      if (!showFieldError(form, err)) form.setFieldError('name', messageOf(err));
    } finally {
      setSaving(false);
    }
  });

  return (
    <Stack maw={560}>
      <PageTitle>Settings</PageTitle>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            Appearance
          </Title>
          {inBrowser ? (
            <>
              <Text size="sm" c="dimmed">
                The portal is in {scheme} mode on this device.
              </Text>
              <Button variant="light" onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}>
                {scheme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode'}
              </Button>
            </>
          ) : (
            <Skeleton h={62} />
          )}
        </Stack>
      </Paper>
      <Stack display={ready ? undefined : 'none'}>
        {user?.role === 'staff' && <AvailabilityCard personId={user.uid} self />}
        <PushSetting />
        <MobileSetting />
        <NoticeChoices />
        <PasskeysCard />
        <DevicesCard />
        <Paper withBorder p="md" radius="md" component="form" onSubmit={save}>
          <Stack gap="sm">
            <Title order={2} size="h4">
              Profile
            </Title>
            <TextInput label="Name" placeholder="Display name" {...form.getInputProps('name')} maxLength={200} />
            <TextInput
              label="Custom greeting"
              description="Shown in the header instead of Good morning/afternoon/evening. Leave empty for the time of day."
              placeholder="Let's sell some cars"
              {...form.getInputProps('greeting')}
              maxLength={80}
            />
            <Button type="submit" loading={saving} style={{ alignSelf: 'flex-start' }}>
              Save profile
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </Stack>
  );
}
