/*
 * ImageMagick's command-line programs (ImageMagick 6 from Debian's source
 * package, built by scripts/build-magick.sh) as one wasip1 command: the
 * tool its argv[0] names (convert, identify, mogrify, composite, compare,
 * montage, conjure, stream), run as each of ImageMagick's own utilities
 * runs it, through MagickCommandGenesis.
 *
 * Our own code (MIT), written against MagickWand's API and linked into the
 * program, whose licence is ImageMagick's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wand/MagickWand.h>

/* Each tool as ImageMagick's own utilities/TOOL.c main runs it: identify
 * and compare have their -format text printed (metadata), and compare
 * exits 1 when the images are dissimilar, 2 on an error. */
static const struct {
	const char *name;
	MagickCommand command;
	int metadata;
} tools[] = {
	{"convert", ConvertImageCommand, 0},     {"identify", IdentifyImageCommand, 1},
	{"mogrify", MogrifyImageCommand, 0},     {"composite", CompositeImageCommand, 0},
	{"compare", CompareImageCommand, 1},     {"montage", MontageImageCommand, 0},
	{"conjure", ConjureImageCommand, 0},     {"stream", StreamImageCommand, 0},
};

/* The program's allocator for the component adapter's own calls: Debian
 * 12's wasi-libc claims every page up to memory.size at its first sbrk,
 * the adapter's included, so the adapter must allocate through it. */
__attribute__((export_name("cabi_realloc"))) void *cabi_realloc(void *old, size_t old_size,
								  size_t align, size_t new_size)
{
	(void)old_size;
	(void)align; /* malloc's 16 bytes suffice for the adapter */
	return realloc(old, new_size);
}

int main(int argc, char **argv)
{
	const char *called = argc > 0 ? argv[0] : "convert";
	const char *slash = strrchr(called, '/');
	const char *name = slash ? slash + 1 : called;
	size_t tool = 0;
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
		if (strcmp(name, tools[i].name) == 0)
			tool = i;

	/* wasi-libc starts every program in `/`; the caller's directory comes
	 * as $PWD (the host sets it for commands). */
	const char *pwd = getenv("PWD");
	if (pwd)
		(void)chdir(pwd);

	MagickCoreGenesis(*argv, MagickTrue);
	/* Messages start with the client's name: Debian's are its installed
	 * binaries' (convert-im6.q16), which ImageMagick finds through
	 * /proc/self/exe; here it would take the working directory's. */
	char client[64];
	snprintf(client, sizeof client, "%s-im6.q16", tools[tool].name);
	SetClientName(client);
	ExceptionInfo *exception = AcquireExceptionInfo();
	ImageInfo *image_info = AcquireImageInfo();
	char *metadata = NULL;
	MagickBooleanType status =
		MagickCommandGenesis(image_info, tools[tool].command, argc, argv,
				     tools[tool].metadata ? &metadata : (char **)NULL, exception);
	if (metadata)
		metadata = DestroyString(metadata);
	int dissimilar = tools[tool].command == CompareImageCommand &&
			 IsMagickTrue(GetImageOption(image_info, "compare:dissimilar"));
	image_info = DestroyImageInfo(image_info);
	exception = DestroyExceptionInfo(exception);
	MagickCoreTerminus();
	if (dissimilar)
		return 1;
	if (tools[tool].command == CompareImageCommand)
		return status != MagickFalse ? 0 : 2;
	return status != MagickFalse ? 0 : 1;
}
