"""The site: the offline page of the post with its clips, its math, and the classroom deck."""
