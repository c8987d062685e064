import { text } from '@soundid/contracts/ui-text';
import { Link } from 'react-router';
import { Page } from '../components/page';

export function NotFoundScreen() {
  return (
    <Page heading={text.pageNotFound}>
      <p>
        <Link to="/">{text.indexLink}</Link>
      </p>
    </Page>
  );
}
