import { PageTitle } from '../components/PageTitle';

export default function Page() {
  return <PageTitle>My Stats & Notes</PageTitle>;
}
