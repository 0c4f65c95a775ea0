import { PageTitle } from '../components/PageTitle';

export default function Page() {
  return <PageTitle>Sales Tracker</PageTitle>;
}
