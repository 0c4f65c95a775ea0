import { PageTitle } from '../components/PageTitle';

export default function Page() {
  return <PageTitle>Leads</PageTitle>;
}
