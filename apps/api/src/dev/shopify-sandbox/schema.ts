import { buildSchema, type GraphQLSchema } from 'graphql';
import countries from 'i18n-iso-countries';

/**
 * The part of Shopify's Storefront API (2025-01) that the sandbox answers: products and their
 * variants, cartCreate and cart. Type, field and argument names and nullability are Shopify's,
 * so a query written against the real API validates (or fails) here the same way; fields
 * the sandbox does not have are refused by validation rather than answered with made-up data.
 */

/** Shopify's CountryCode enum: ISO 3166-1 alpha-2, plus its few extra codes. */
const COUNTRY_CODES = [...new Set([...Object.keys(countries.getAlpha2Codes()), 'AC', 'TA', 'XK', 'ZZ'])].sort();
const CURRENCY_CODES = ['AUD', 'CAD', 'CHF', 'CZK', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'NZD', 'PLN', 'SEK', 'USD'];
const LANGUAGE_CODES = ['DE', 'EN', 'ES', 'FR', 'IT', 'JA', 'KO', 'NL', 'PL', 'PT', 'PT_BR', 'SV', 'ZH_CN'];
const CART_ERROR_CODES = [
  'INVALID',
  'LESS_THAN',
  'INVALID_MERCHANDISE_LINE',
  'MISSING_DISCOUNT_CODE',
  'MISSING_NOTE',
  'NOTE_TOO_LONG',
  'MAXIMUM_EXCEEDED',
  'MINIMUM_NOT_MET',
  'INVALID_INCREMENT',
  'MERCHANDISE_NOT_ENOUGH_STOCK',
  'MERCHANDISE_OUT_OF_STOCK',
  'PAYMENT_METHOD_NOT_SUPPORTED',
];

const SDL = /* GraphQL */ `
  schema {
    query: QueryRoot
    mutation: Mutation
  }

  "Contextualizes data (country, language) as Shopify's @inContext does; the sandbox sells in USD everywhere."
  directive @inContext(country: CountryCode, language: LanguageCode) on QUERY | MUTATION

  "A signed decimal number serialized as a string, e.g. \\"29.99\\"."
  scalar Decimal
  "An RFC 3986 and RFC 3987 compliant URI string."
  scalar URL
  "An ISO-8601 encoded UTC date time string."
  scalar DateTime

  enum CountryCode { ${COUNTRY_CODES.join(' ')} }
  enum CurrencyCode { ${CURRENCY_CODES.join(' ')} }
  enum LanguageCode { ${LANGUAGE_CODES.join(' ')} }
  enum CartErrorCode { ${CART_ERROR_CODES.join(' ')} }
  enum CartWarningCode { MERCHANDISE_NOT_ENOUGH_STOCK MERCHANDISE_OUT_OF_STOCK PAYMENTS_GIFT_CARDS_UNAVAILABLE }

  interface Node {
    id: ID!
  }

  type MoneyV2 {
    amount: Decimal!
    currencyCode: CurrencyCode!
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type Attribute {
    key: String!
    value: String
  }

  type SelectedOption {
    name: String!
    value: String!
  }

  type ProductPriceRange {
    maxVariantPrice: MoneyV2!
    minVariantPrice: MoneyV2!
  }

  type Product implements Node {
    id: ID!
    handle: String!
    title: String!
    description(truncateAt: Int): String!
    descriptionHtml: String!
    vendor: String!
    productType: String!
    tags: [String!]!
    availableForSale: Boolean!
    onlineStoreUrl: URL
    createdAt: DateTime!
    updatedAt: DateTime!
    publishedAt: DateTime!
    priceRange: ProductPriceRange!
    compareAtPriceRange: ProductPriceRange!
    variants(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): ProductVariantConnection!
  }

  type ProductVariant implements Node {
    id: ID!
    title: String!
    sku: String
    availableForSale: Boolean!
    currentlyNotInStock: Boolean!
    quantityAvailable: Int
    requiresShipping: Boolean!
    price: MoneyV2!
    compareAtPrice: MoneyV2
    selectedOptions: [SelectedOption!]!
    product: Product!
  }

  type ProductVariantEdge {
    cursor: String!
    node: ProductVariant!
  }

  type ProductVariantConnection {
    edges: [ProductVariantEdge!]!
    nodes: [ProductVariant!]!
    pageInfo: PageInfo!
  }

  union Merchandise = ProductVariant

  type CartBuyerIdentity {
    countryCode: CountryCode
    email: String
    phone: String
  }

  type CartCost {
    checkoutChargeAmount: MoneyV2!
    subtotalAmount: MoneyV2!
    subtotalAmountEstimated: Boolean!
    totalAmount: MoneyV2!
    totalAmountEstimated: Boolean!
    totalDutyAmount: MoneyV2 @deprecated(reason: "Tax and duty amounts are no longer available and will be removed in a future version.")
    totalDutyAmountEstimated: Boolean! @deprecated(reason: "Tax and duty amounts are no longer available and will be removed in a future version.")
    totalTaxAmount: MoneyV2 @deprecated(reason: "Tax and duty amounts are no longer available and will be removed in a future version.")
    totalTaxAmountEstimated: Boolean! @deprecated(reason: "Tax and duty amounts are no longer available and will be removed in a future version.")
  }

  type CartLineCost {
    amountPerQuantity: MoneyV2!
    compareAtAmountPerQuantity: MoneyV2
    subtotalAmount: MoneyV2!
    totalAmount: MoneyV2!
  }

  interface BaseCartLine {
    id: ID!
    quantity: Int!
    merchandise: Merchandise!
    cost: CartLineCost!
    attributes: [Attribute!]!
  }

  type CartLine implements BaseCartLine & Node {
    id: ID!
    quantity: Int!
    merchandise: Merchandise!
    cost: CartLineCost!
    attributes: [Attribute!]!
  }

  type BaseCartLineEdge {
    cursor: String!
    node: BaseCartLine!
  }

  type BaseCartLineConnection {
    edges: [BaseCartLineEdge!]!
    nodes: [BaseCartLine!]!
    pageInfo: PageInfo!
  }

  type Cart implements Node {
    id: ID!
    checkoutUrl: URL!
    createdAt: DateTime!
    updatedAt: DateTime!
    note: String
    attributes: [Attribute!]!
    buyerIdentity: CartBuyerIdentity!
    cost: CartCost!
    totalQuantity: Int!
    lines(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): BaseCartLineConnection!
  }

  type CartUserError {
    code: CartErrorCode
    field: [String!]
    message: String!
  }

  type CartWarning {
    code: CartWarningCode!
    message: String!
    target: ID!
  }

  type CartCreatePayload {
    cart: Cart
    userErrors: [CartUserError!]!
    warnings: [CartWarning!]!
  }

  input AttributeInput {
    key: String!
    value: String!
  }

  input CartLineInput {
    merchandiseId: ID!
    quantity: Int = 1
    attributes: [AttributeInput!]
    sellingPlanId: ID
  }

  input CartBuyerIdentityInput {
    email: String
    phone: String
    countryCode: CountryCode
    customerAccessToken: String
  }

  input CartInput {
    lines: [CartLineInput!]
    buyerIdentity: CartBuyerIdentityInput
    attributes: [AttributeInput!]
    note: String
    discountCodes: [String!]
  }

  type QueryRoot {
    product(id: ID, handle: String): Product
    cart(id: ID!): Cart
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
  }

  type Mutation {
    cartCreate(input: CartInput): CartCreatePayload
  }
`;

let built: GraphQLSchema | undefined;

/** The schema, built once (parsing the SDL takes a few milliseconds). */
export function storefrontSchema(): GraphQLSchema {
  built ??= buildSchema(SDL);
  return built;
}
