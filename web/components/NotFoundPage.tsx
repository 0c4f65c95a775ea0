import { Link } from 'react-router';
import { Button, Center, Stack, Text, Title } from '@mantine/core';

/** `embedded` inside the dashboard, whose shell already has the page's main landmark. */
export default function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  return (
    <Center mih={embedded ? 300 : '100dvh'} p="md" component={embedded ? 'div' : 'main'}>
      <Stack align="center">
        <Title order={1}>Page Not Found</Title>
        <Text c="dimmed">The page you asked for does not exist.</Text>
        <Button component={Link} to="/">
          Go Back Home
        </Button>
      </Stack>
    </Center>
  );
}
