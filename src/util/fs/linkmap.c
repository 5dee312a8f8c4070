/*
 * The inode map: open addressing over (st_dev, st_ino), mapping each
 * inode copied to the path of its copy (so that hard links stay links in
 * copies), also used as a plain set (path NULL) by pmbench_fs_usage().
 */
#include "pmbench/common.h"

#include "pmbench/fs.h"

#include "internal.h"

struct pmbench_fs_linkmap {
	struct linkent *ents;
	size_t nr;
	size_t size; /* a power of two, or 0 */
};

struct pmbench_fs_linkmap *pmbench_fs_linkmap_new(void)
{
	return pmbench_xcalloc(1, sizeof(struct pmbench_fs_linkmap));
}

void pmbench_fs_linkmap_free(struct pmbench_fs_linkmap *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->size; i++)
		free(map->ents[i].path);
	free(map->ents);
	free(map);
}

static size_t link_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino ^ ((uint64_t)dev * 0x9e3779b97f4a7c15u);

	/* splitmix64's finaliser spreads sequential inode numbers. */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebu;
	h ^= h >> 31;
	return (size_t)h;
}

/* The slot for (dev, ino): its entry, or the empty slot to fill. */
static struct linkent *link_slot(struct pmbench_fs_linkmap *map, dev_t dev,
				 ino_t ino)
{
	size_t mask = map->size - 1;
	size_t i = link_hash(dev, ino) & mask;

	while (map->ents[i].used &&
	       (map->ents[i].dev != dev || map->ents[i].ino != ino))
		i = (i + 1) & mask;
	return &map->ents[i];
}

struct linkent *fs_link_find(struct pmbench_fs_linkmap *map, dev_t dev,
			     ino_t ino)
{
	struct linkent *e;

	if (!map->size)
		return NULL;
	e = link_slot(map, dev, ino);
	return e->used ? e : NULL;
}

void fs_link_put(struct pmbench_fs_linkmap *map, dev_t dev, ino_t ino,
		 const char *path)
{
	struct linkent *e;

	if (pmbench_st_mult(map->nr + 1, 2) > map->size) {
		struct linkent *old = map->ents;
		size_t old_size = map->size;

		map->size = old_size ? pmbench_st_mult(old_size, 2) : 64;
		map->ents = pmbench_xcalloc(map->size, sizeof(*map->ents));
		for (size_t i = 0; i < old_size; i++)
			if (old[i].used)
				*link_slot(map, old[i].dev, old[i].ino) =
					old[i];
		free(old);
	}
	e = link_slot(map, dev, ino);
	if (!e->used) {
		e->used = 1;
		e->dev = dev;
		e->ino = ino;
		map->nr++;
	}
	free(e->path);
	e->path = path ? pmbench_xstrdup(path) : NULL;
}
