// The Apple Podcasts category tree (Apple's "Apple Podcasts categories" list, in force since
// 2019): 19 top-level categories and their subcategories. Name is the exact text an RSS feed
// puts in <itunes:category text="…">; Id is a stable slug of it for the wire.
export type PodcastSubcategoryEntry = { readonly Id: string; readonly Name: string };
export type PodcastCategoryEntry = {
  readonly Id: string;
  readonly Name: string;
  readonly Subcategories: readonly PodcastSubcategoryEntry[];
};

const TREE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['Arts', ['Books', 'Design', 'Fashion & Beauty', 'Food', 'Performing Arts', 'Visual Arts']],
  ['Business', ['Careers', 'Entrepreneurship', 'Investing', 'Management', 'Marketing', 'Non-Profit']],
  ['Comedy', ['Comedy Interviews', 'Improv', 'Stand-Up']],
  ['Education', ['Courses', 'How To', 'Language Learning', 'Self-Improvement']],
  ['Fiction', ['Comedy Fiction', 'Drama', 'Science Fiction']],
  ['Government', []],
  ['History', []],
  ['Health & Fitness', ['Alternative Health', 'Fitness', 'Medicine', 'Mental Health', 'Nutrition', 'Sexuality']],
  ['Kids & Family', ['Education for Kids', 'Parenting', 'Pets & Animals', 'Stories for Kids']],
  ['Leisure', ['Animation & Manga', 'Automotive', 'Aviation', 'Crafts', 'Games', 'Hobbies', 'Home & Garden', 'Video Games']],
  ['Music', ['Music Commentary', 'Music History', 'Music Interviews']],
  ['News', ['Business News', 'Daily News', 'Entertainment News', 'News Commentary', 'Politics', 'Sports News', 'Tech News']],
  ['Religion & Spirituality', ['Buddhism', 'Christianity', 'Hinduism', 'Islam', 'Judaism', 'Religion', 'Spirituality']],
  ['Science', ['Astronomy', 'Chemistry', 'Earth Sciences', 'Life Sciences', 'Mathematics', 'Natural Sciences', 'Nature', 'Physics', 'Social Sciences']],
  ['Society & Culture', ['Documentary', 'Personal Journals', 'Philosophy', 'Places & Travel', 'Relationships']],
  ['Sports', ['Baseball', 'Basketball', 'Cricket', 'Fantasy Sports', 'Football', 'Golf', 'Hockey', 'Rugby', 'Running', 'Soccer', 'Swimming', 'Tennis', 'Volleyball', 'Wilderness', 'Wrestling']],
  ['Technology', []],
  ['True Crime', []],
  ['TV & Film', ['After Shows', 'Film History', 'Film Interviews', 'Film Reviews', 'TV Reviews']],
];

/** 'Fashion & Beauty' → 'fashion-and-beauty', 'Self-Improvement' → 'self-improvement'. */
export function categorySlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export const PODCAST_CATEGORIES: readonly PodcastCategoryEntry[] = TREE.map(([name, subs]) => ({
  Id: categorySlug(name),
  Name: name,
  // A subcategory's Id carries its parent's: 'News' > 'Business News' and 'Business' stay apart.
  Subcategories: subs.map((sub) => ({ Id: `${categorySlug(name)}.${categorySlug(sub)}`, Name: sub })),
}));
