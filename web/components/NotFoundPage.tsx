import { Link } from 'react-router';
import { Button, Center, Stack, Text, Title } from '@mantine/core';

export default function NotFoundPage() {
  return (
    <Center mih="100dvh" p="md" component="main">
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
