import { List, Text } from '@mantine/core';
import { PageTitle } from '../components/PageTitle';

export default function LeadsKpiPage() {
  return (
    <>
      <PageTitle>Lead Stats</PageTitle>
      <Text>Planned KPIs:</Text>
      <List>
        <List.Item>Leads received per associate (last 30 days)</List.Item>
        <List.Item>Closed leads per associate</List.Item>
        <List.Item>Close % per associate</List.Item>
        <List.Item>Skips/passes breakdown</List.Item>
      </List>
    </>
  );
}
