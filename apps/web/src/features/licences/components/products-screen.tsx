import { text, titles } from '@soundid/contracts/ui-text';
import { Link } from 'react-router';
import { Page } from '../../../components/page';

/** The licences and devices page; its sections come with the licences work (second spec). */
export function ProductsScreen() {
  return (
    <Page
      heading={titles.products}
      width="wide"
      actions={
        <Link className="button button--primary" to="/add-license">
          {text.registerNewLicense}
        </Link>
      }
    >
      <p>{text.productsIntro}</p>
    </Page>
  );
}
