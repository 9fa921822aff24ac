/**
 * The rich result types a collection's item pages can describe, and for each the properties
 * Google reads: which are required for the rich result and which recommended, which field types
 * can fill each, and the field names that suggest one (for the proposed mapping). Written from
 * Google Search Central's structured data pages (cited per type). Nothing here reads storage.
 */
import type { FieldType } from "../../../../src/contract/field-types";
import type { SchemaType } from "../../../../src/contract/schema-types";

export interface PropertySpec {
  /** The JSON-LD path it fills (`offers.price`), also its key in the mapping. */
  path: string;
  /** In the owner's words, for the SEO Engine screen. */
  label: string;
  need: "required" | "recommended";
  /** Field types that can fill it. */
  accepts: readonly FieldType[];
  /** Field keys or names that suggest it, matched without case, spaces or separators. */
  guess: readonly string[];
  /** Filled without a field when none is mapped (the page's title, its publish time…). */
  automatic?: "title" | "description" | "image" | "publishedAt" | "publisher" | "currency";
}

const TEXT: readonly FieldType[] = ["text"];
const PROSE: readonly FieldType[] = ["text", "richText"];
const IMAGES: readonly FieldType[] = ["image", "gallery"];
const DATES: readonly FieldType[] = ["date"];
const LABELLED: readonly FieldType[] = ["option", "text"];
const NAMED: readonly FieldType[] = ["text", "reference"];
const AMOUNT: readonly FieldType[] = ["decimal", "number"];

const name = (label = "Name"): PropertySpec => ({
  path: "name",
  label,
  need: "required",
  accepts: TEXT,
  guess: ["title", "name", "headline"],
  automatic: "title",
});
const image = (need: PropertySpec["need"]): PropertySpec => ({
  path: "image",
  label: "Image",
  need,
  accepts: IMAGES,
  guess: ["image", "photo", "photos", "picture", "cover", "gallery", "images"],
  automatic: "image",
});
const description = (need: PropertySpec["need"], accepts = PROSE): PropertySpec => ({
  path: "description",
  label: "Description",
  need,
  accepts,
  guess: ["description", "summary", "body", "details", "about", "intro"],
  automatic: "description",
});

// https://developers.google.com/search/docs/appearance/structured-data/article
const ARTICLE: readonly PropertySpec[] = [
  { ...name("Headline"), path: "headline", need: "recommended" },
  image("recommended"),
  { path: "author.name", label: "Author", need: "recommended", accepts: NAMED, guess: ["author", "authors", "writer", "byline"] },
  { path: "datePublished", label: "Date published", need: "recommended", accepts: DATES, guess: [], automatic: "publishedAt" },
];

// https://developers.google.com/search/docs/appearance/structured-data/merchant-listing
// https://developers.google.com/search/docs/appearance/structured-data/product-snippet
const PRODUCT: readonly PropertySpec[] = [
  name(),
  image("required"),
  { path: "offers.price", label: "Price", need: "required", accepts: AMOUNT, guess: ["price", "amount", "cost"] },
  // A decimal field's own currency fills it when the price field has one.
  { path: "offers.priceCurrency", label: "Currency", need: "required", accepts: LABELLED, guess: ["currency"], automatic: "currency" },
  {
    path: "offers.availability",
    label: "Availability",
    need: "recommended",
    accepts: ["option", "boolean"],
    guess: ["availability", "stock", "instock", "available"],
  },
  { path: "offers.itemCondition", label: "Condition", need: "recommended", accepts: LABELLED, guess: ["condition"] },
  description("recommended"),
  { path: "brand.name", label: "Brand", need: "recommended", accepts: NAMED, guess: ["brand", "maker", "manufacturer", "vendor"] },
  { path: "sku", label: "SKU", need: "recommended", accepts: TEXT, guess: ["sku", "productcode", "reference", "ref"] },
  { path: "gtin", label: "GTIN (EAN, UPC, ISBN)", need: "recommended", accepts: TEXT, guess: ["gtin", "ean", "upc", "isbn", "barcode"] },
];

// https://developers.google.com/search/docs/appearance/structured-data/job-posting
const JOB: readonly PropertySpec[] = [
  { ...name("Title"), path: "title" },
  { ...description("required"), guess: ["description", "body", "details", "about", "role"] },
  { path: "datePosted", label: "Date posted", need: "required", accepts: DATES, guess: ["posted", "dateposted"], automatic: "publishedAt" },
  {
    path: "hiringOrganization.name",
    label: "Hiring organisation",
    need: "required",
    accepts: NAMED,
    guess: ["company", "employer", "organisation", "organization", "hiringorganization"],
    automatic: "publisher",
  },
  {
    path: "jobLocation.address.addressLocality",
    label: "Location (town or city)",
    need: "required",
    accepts: LABELLED,
    guess: ["location", "city", "town", "place"],
  },
  { path: "jobLocation.address.addressCountry", label: "Country", need: "recommended", accepts: LABELLED, guess: ["country"] },
  {
    path: "jobLocationType",
    label: "Remote (a switch)",
    need: "recommended",
    accepts: ["boolean"],
    guess: ["remote", "telecommute", "workfromhome"],
  },
  {
    path: "baseSalary.value.minValue",
    label: "Salary from",
    need: "recommended",
    accepts: AMOUNT,
    guess: ["salaryfrom", "salarymin", "minsalary", "salary"],
  },
  {
    path: "baseSalary.value.maxValue",
    label: "Salary to",
    need: "recommended",
    accepts: AMOUNT,
    guess: ["salaryto", "salarymax", "maxsalary"],
  },
  {
    path: "employmentType",
    label: "Employment type",
    need: "recommended",
    accepts: LABELLED,
    guess: ["employmenttype", "type", "contract", "hours"],
  },
  {
    path: "validThrough",
    label: "Closing date",
    need: "recommended",
    accepts: DATES,
    guess: ["closes", "closingdate", "deadline", "validthrough", "expires", "until"],
  },
];

// https://developers.google.com/search/docs/appearance/structured-data/event
const EVENT: readonly PropertySpec[] = [
  name(),
  { path: "startDate", label: "Start", need: "required", accepts: DATES, guess: ["start", "startdate", "starts", "date", "when"] },
  { path: "location.name", label: "Venue", need: "required", accepts: LABELLED, guess: ["venue", "location", "place", "where"] },
  { path: "location.address.addressLocality", label: "Town or city", need: "recommended", accepts: LABELLED, guess: ["city", "town"] },
  { path: "endDate", label: "End", need: "recommended", accepts: DATES, guess: ["end", "enddate", "ends", "until"] },
  description("recommended"),
  image("recommended"),
  { path: "offers.price", label: "Ticket price", need: "recommended", accepts: AMOUNT, guess: ["price", "ticket", "tickets", "fee"] },
  {
    path: "organizer.name",
    label: "Organiser",
    need: "recommended",
    accepts: NAMED,
    guess: ["organizer", "organiser", "host"],
    automatic: "publisher",
  },
];

// https://developers.google.com/search/docs/appearance/structured-data/recipe
const RECIPE: readonly PropertySpec[] = [
  name(),
  image("required"),
  description("recommended"),
  {
    path: "recipeIngredient",
    label: "Ingredients (one per line or a list)",
    need: "recommended",
    accepts: PROSE,
    guess: ["ingredients", "ingredient"],
  },
  {
    path: "recipeInstructions",
    label: "Method",
    need: "recommended",
    accepts: PROSE,
    guess: ["instructions", "method", "steps", "directions"],
  },
  {
    path: "prepTime",
    label: "Preparation time (minutes)",
    need: "recommended",
    accepts: ["number", "text"],
    guess: ["preptime", "preparation", "prep"],
  },
  {
    path: "cookTime",
    label: "Cooking time (minutes)",
    need: "recommended",
    accepts: ["number", "text"],
    guess: ["cooktime", "cooking", "cook"],
  },
  {
    path: "totalTime",
    label: "Total time (minutes)",
    need: "recommended",
    accepts: ["number", "text"],
    guess: ["totaltime", "time", "duration"],
  },
  {
    path: "recipeYield",
    label: "Serves",
    need: "recommended",
    accepts: ["number", "text"],
    guess: ["serves", "servings", "yield", "portions"],
  },
  { path: "recipeCategory", label: "Category", need: "recommended", accepts: LABELLED, guess: ["category", "course", "meal"] },
  { path: "recipeCuisine", label: "Cuisine", need: "recommended", accepts: LABELLED, guess: ["cuisine"] },
  { path: "author.name", label: "Author", need: "recommended", accepts: NAMED, guess: ["author", "chef", "by"] },
];

// https://developers.google.com/search/docs/appearance/structured-data/faqpage
const FAQ: readonly PropertySpec[] = [
  { ...name("Question"), path: "mainEntity.name", guess: ["question", "title", "name"] },
  { path: "mainEntity.acceptedAnswer.text", label: "Answer", need: "required", accepts: PROSE, guess: ["answer", "body", "reply"] },
];

export const SCHEMA_PROPERTIES: Readonly<Record<SchemaType, readonly PropertySpec[]>> = {
  Article: ARTICLE,
  BlogPosting: ARTICLE,
  NewsArticle: ARTICLE,
  Product: PRODUCT,
  JobPosting: JOB,
  Event: EVENT,
  Recipe: RECIPE,
  FAQPage: FAQ,
  none: [],
};
