/*
 * hwsimctl - create, list and delete mac80211_hwsim radios at run time.
 *
 * The guest boots with mac80211_hwsim.radios=0; every wireless test makes
 * the radios it needs and deletes them when it is done.  This tool speaks
 * the driver's generic netlink family "MAC80211_HWSIM" (the commands and
 * attributes of drivers/net/wireless/mac80211_hwsim.h, Linux 6.1) through
 * libnl-genl-3:
 *
 *   hwsimctl new [--channels N] [--name NAME] [--no-vif] ...
 *                              create a radio, print its id on stdout
 *   hwsimctl del ID | --name NAME
 *                              delete one radio
 *   hwsimctl list              print "ID NAME CHANNELS [ALPHA2]" per radio
 *   hwsimctl del-all           delete every radio of this network namespace
 *
 * The driver answers HWSIM_CMD_NEW_RADIO with the new radio's id in the
 * error field of the netlink acknowledgement (a positive "error"), which
 * is why the acknowledgement is read by hand below instead of through
 * libnl's default handlers.  The kernel's extended-ack message (for
 * example "must have at least one channel") is printed with the error.
 *
 * A radio lives in the network namespace of its wiphy: GET, DEL and the
 * dump only see radios whose wiphy is in the caller's namespace, so a test
 * that moved a phy with `iw phy X set netns` deletes it from inside that
 * namespace (`ip netns exec NS hwsimctl del-all`).
 *
 * cfg80211 silently falls back to the default "phyN" name when the name
 * asked for is taken; `new --name` checks the name it got and fails (and
 * removes the radio) rather than hand back a radio under another name.
 *
 * Exit codes: 0 success, 1 the kernel refused or the radio was not found,
 * 2 usage.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* From drivers/net/wireless/mac80211_hwsim.h (Linux 6.1): ABI numbers. */
enum {
	HWSIM_CMD_NEW_RADIO = 4,
	HWSIM_CMD_DEL_RADIO = 5,
	HWSIM_CMD_GET_RADIO = 6,
};

enum {
	HWSIM_ATTR_CHANNELS = 9,
	HWSIM_ATTR_RADIO_ID = 10,
	HWSIM_ATTR_REG_HINT_ALPHA2 = 11,
	HWSIM_ATTR_REG_CUSTOM_REG = 12,
	HWSIM_ATTR_REG_STRICT_REG = 13,
	HWSIM_ATTR_SUPPORT_P2P_DEVICE = 14,
	HWSIM_ATTR_USE_CHANCTX = 15,
	HWSIM_ATTR_RADIO_NAME = 17,
	HWSIM_ATTR_NO_VIF = 18,
	HWSIM_ATTR_PERM_ADDR = 22,
	HWSIM_ATTR_MAX = 25,
};

#define HWSIM_FAMILY "MAC80211_HWSIM"
#define MAX_RADIOS   256

static const char *prog = "hwsimctl";

__attribute__((noreturn, format(printf, 1, 2))) static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

__attribute__((format(printf, 1, 2))) static void warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

__attribute__((noreturn, format(printf, 1, 2))) static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(2);
}

static void usage(void)
{
	printf("usage: %s COMMAND [ARGS]\n"
	       "\n"
	       "  new [OPTIONS]          create a radio, print its id\n"
	       "    --channels N         number of concurrent channels (default 1)\n"
	       "    --name NAME          wiphy name (default phyN)\n"
	       "    --no-vif             do not create the default wlanN interface\n"
	       "    --alpha2 CC          regulatory hint of the driver (country CC)\n"
	       "    --custom-reg N       hwsim custom regulatory domain N\n"
	       "    --strict-reg         REGULATORY_STRICT_REG\n"
	       "    --p2p-device         add a P2P device interface type\n"
	       "    --chanctx            use channel contexts even with one channel\n"
	       "    --perm-addr MAC      permanent MAC address\n"
	       "  del ID | --name NAME   delete a radio\n"
	       "  list                   print ID NAME CHANNELS [ALPHA2] per radio\n"
	       "  del-all                delete every radio of this namespace\n"
	       "  --help                 this text\n",
	       prog);
}

/* A connected generic netlink socket and the family id it talks to. */
struct hwsim {
	struct nl_sock *sock;
	int family;
};

static void hwsim_close(struct hwsim *h)
{
	if (h->sock)
		nl_socket_free(h->sock);
	h->sock = NULL;
}

#define autoclose_hwsim __attribute__((cleanup(hwsim_close)))

static void msg_free(struct nl_msg **msg)
{
	if (*msg)
		nlmsg_free(*msg);
}

#define autofree_msg __attribute__((cleanup(msg_free)))

static void cb_free(struct nl_cb **cb)
{
	if (*cb)
		nl_cb_put(*cb);
}

#define autofree_cb __attribute__((cleanup(cb_free)))

static void hwsim_open(struct hwsim *h)
{
	int one = 1, err;

	h->sock = nl_socket_alloc();
	if (!h->sock)
		die("cannot allocate a netlink socket");
	err = genl_connect(h->sock);
	if (err < 0)
		die("cannot connect to generic netlink: %s", nl_geterror(err));
	/* Ask for the kernel's error text; an old kernel ignoring it is fine. */
	(void)setsockopt(nl_socket_get_fd(h->sock), SOL_NETLINK, NETLINK_EXT_ACK, &one,
			 sizeof(one));
	h->family = genl_ctrl_resolve(h->sock, HWSIM_FAMILY);
	if (h->family < 0)
		die("generic netlink family %s not found (is mac80211_hwsim "
		    "built in?): %s",
		    HWSIM_FAMILY, nl_geterror(h->family));
}

/* One radio as the driver describes it. */
struct radio {
	int id;
	char name[64];
	unsigned int channels;
	char alpha2[3];
};

/* State of one request: its acknowledgement and the radios it returned. */
struct request {
	bool done;
	int error; /* errno of the ack: <0 error, >0 new radio id */
	char ext_msg[256];
	struct radio radios[MAX_RADIOS];
	int n_radios;
};

/*
 * Extended ack: after struct nlmsgerr comes the request (whole, or only
 * its header when NLM_F_CAPPED) and then NLMSGERR_ATTR_* attributes.
 */
static void parse_ext_ack(struct request *req, const struct nlmsghdr *hdr, const struct nlmsgerr *e)
{
	const unsigned char *end = (const unsigned char *)hdr + hdr->nlmsg_len;
	const unsigned char *p = (const unsigned char *)(e + 1);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(hdr->nlmsg_flags & NLM_F_CAPPED))
		p += NLMSG_ALIGN(e->msg.nlmsg_len - sizeof(struct nlmsghdr));
	if (p >= end)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)p, (int)(end - p), NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(req->ext_msg, sizeof(req->ext_msg), "%.*s", nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct request *req = arg;
	const struct nlmsghdr *hdr = (const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);

	(void)nla;
	req->done = true;
	req->error = e->error;
	parse_ext_ack(req, hdr, e);
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;

	(void)msg;
	req->done = true;
	req->error = 0;
	return NL_STOP;
}

/* A GET reply or one dump entry: remember the radio. */
static int on_radio(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;
	struct nlattr *tb[HWSIM_ATTR_MAX + 1];
	struct radio *r;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, HWSIM_ATTR_MAX, NULL) < 0)
		return NL_SKIP;
	if (!tb[HWSIM_ATTR_RADIO_ID] || req->n_radios >= MAX_RADIOS)
		return NL_SKIP;
	r = &req->radios[req->n_radios++];
	memset(r, 0, sizeof(*r));
	r->id = (int)nla_get_u32(tb[HWSIM_ATTR_RADIO_ID]);
	/* The driver puts the name without its NUL: copy by length. */
	if (tb[HWSIM_ATTR_RADIO_NAME])
		snprintf(r->name, sizeof(r->name), "%.*s", nla_len(tb[HWSIM_ATTR_RADIO_NAME]),
			 (const char *)nla_data(tb[HWSIM_ATTR_RADIO_NAME]));
	if (tb[HWSIM_ATTR_CHANNELS])
		r->channels = nla_get_u32(tb[HWSIM_ATTR_CHANNELS]);
	if (tb[HWSIM_ATTR_REG_HINT_ALPHA2] && nla_len(tb[HWSIM_ATTR_REG_HINT_ALPHA2]) >= 2)
		memcpy(r->alpha2, nla_data(tb[HWSIM_ATTR_REG_HINT_ALPHA2]), 2);
	return NL_OK;
}

/* A dump ends with NLMSG_DONE instead of an ack. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;

	(void)msg;
	req->done = true;
	req->error = 0;
	return NL_STOP;
}

static struct nl_msg *request_new(const struct hwsim *h, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		die("cannot allocate a netlink message");
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, h->family, 0, flags, (uint8_t)cmd, 1))
		die("cannot build the netlink header");
	return msg;
}

/*
 * Send msg and read replies until its acknowledgement (or the end of a
 * dump). Returns the ack's error field: -errno, 0, or a positive radio id.
 */
static int request_run(const struct hwsim *h, struct nl_msg *msg, struct request *req)
{
	autofree_cb struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int err;

	if (!cb)
		die("cannot allocate netlink callbacks");
	memset(req, 0, sizeof(*req));
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, req);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_radio, req);

	err = nl_send_auto(h->sock, msg);
	if (err < 0)
		die("cannot send to %s: %s", HWSIM_FAMILY, nl_geterror(err));
	while (!req->done) {
		err = nl_recvmsgs(h->sock, cb);
		/* Our own handlers stop with req->done set; anything else
		 * is a receive error. */
		if (err < 0 && !req->done)
			die("cannot read the reply of %s: %s", HWSIM_FAMILY, nl_geterror(err));
	}
	return req->error;
}

static void put_or_die(int err, const char *what)
{
	if (err < 0)
		die("cannot add %s to the request: %s", what, nl_geterror(err));
}

/* Print "what: strerror (kernel message)" for a refused request. */
static void warn_refused(const struct request *req, const char *what)
{
	if (req->ext_msg[0])
		warn("%s: %s (%s)", what, strerror(-req->error), req->ext_msg);
	else
		warn("%s: %s", what, strerror(-req->error));
}

static int radio_get(const struct hwsim *h, int id, struct radio *out)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_GET_RADIO, 0);
	struct request req;

	put_or_die(nla_put_u32(msg, HWSIM_ATTR_RADIO_ID, (uint32_t)id), "id");
	if (request_run(h, msg, &req) < 0 || req.n_radios != 1)
		return -1;
	*out = req.radios[0];
	return 0;
}

static int radio_del_by_id(const struct hwsim *h, int id)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_DEL_RADIO, 0);
	struct request req;
	char what[64];

	put_or_die(nla_put_u32(msg, HWSIM_ATTR_RADIO_ID, (uint32_t)id), "id");
	if (request_run(h, msg, &req) < 0) {
		snprintf(what, sizeof(what), "cannot delete radio %d", id);
		warn_refused(&req, what);
		return -1;
	}
	return 0;
}

/* Parse a non-negative decimal number, or fail with a usage error. */
static unsigned int parse_uint(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > INT_MAX || s[0] == '-')
		usage_error("%s: not a number: '%s'", what, s);
	return (unsigned int)v;
}

static void parse_mac(const char *s, unsigned char mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6)
		usage_error("--perm-addr: not a MAC address: '%s'", s);
	for (i = 0; i < 6; i++)
		mac[i] = (unsigned char)b[i];
}

/* Option value: the next argument, or a usage error. */
static const char *optval(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		usage_error("%s needs a value", argv[*i]);
	return argv[++*i];
}

static int cmd_new(const struct hwsim *h, int argc, char **argv)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_NEW_RADIO, 0);
	const char *name = NULL;
	struct request req;
	struct radio got;
	unsigned char mac[6];
	int i, id;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--channels")) {
			unsigned int n = parse_uint(optval(argc, argv, &i), a);

			put_or_die(nla_put_u32(msg, HWSIM_ATTR_CHANNELS, n), a);
		} else if (!strcmp(a, "--name")) {
			name = optval(argc, argv, &i);
			if (!name[0] || strlen(name) >= sizeof(got.name))
				usage_error("--name: bad name '%s'", name);
			put_or_die(nla_put_string(msg, HWSIM_ATTR_RADIO_NAME, name), a);
		} else if (!strcmp(a, "--no-vif")) {
			put_or_die(nla_put_flag(msg, HWSIM_ATTR_NO_VIF), a);
		} else if (!strcmp(a, "--alpha2")) {
			const char *cc = optval(argc, argv, &i);

			if (strlen(cc) != 2)
				usage_error("--alpha2: want two letters, got "
					    "'%s'",
					    cc);
			put_or_die(nla_put(msg, HWSIM_ATTR_REG_HINT_ALPHA2, 2, cc), a);
		} else if (!strcmp(a, "--custom-reg")) {
			unsigned int n = parse_uint(optval(argc, argv, &i), a);

			put_or_die(nla_put_u32(msg, HWSIM_ATTR_REG_CUSTOM_REG, n), a);
		} else if (!strcmp(a, "--strict-reg")) {
			put_or_die(nla_put_flag(msg, HWSIM_ATTR_REG_STRICT_REG), a);
		} else if (!strcmp(a, "--p2p-device")) {
			put_or_die(nla_put_flag(msg, HWSIM_ATTR_SUPPORT_P2P_DEVICE), a);
		} else if (!strcmp(a, "--chanctx")) {
			put_or_die(nla_put_flag(msg, HWSIM_ATTR_USE_CHANCTX), a);
		} else if (!strcmp(a, "--perm-addr")) {
			parse_mac(optval(argc, argv, &i), mac);
			put_or_die(nla_put(msg, HWSIM_ATTR_PERM_ADDR, 6, mac), a);
		} else {
			usage_error("new: unknown option '%s'", a);
		}
	}

	id = request_run(h, msg, &req);
	if (id < 0) {
		warn_refused(&req, "cannot create a radio");
		return 1;
	}
	if (name) {
		if (radio_get(h, id, &got) < 0) {
			warn("radio %d vanished right after its creation", id);
			return 1;
		}
		if (strcmp(got.name, name)) {
			warn("the name '%s' is taken: the kernel called the "
			     "new radio '%s'; removing it",
			     name, got.name);
			radio_del_by_id(h, id);
			return 1;
		}
	}
	printf("%d\n", id);
	return 0;
}

static int cmd_del(const struct hwsim *h, int argc, char **argv)
{
	autofree_msg struct nl_msg *msg = NULL;
	struct request req;
	char what[128];

	if (argc == 1) {
		int id = (int)parse_uint(argv[0], "del");

		return radio_del_by_id(h, id) < 0 ? 1 : 0;
	}
	if (argc != 2 || strcmp(argv[0], "--name"))
		usage_error("usage: del ID | del --name NAME");
	msg = request_new(h, HWSIM_CMD_DEL_RADIO, 0);
	put_or_die(nla_put_string(msg, HWSIM_ATTR_RADIO_NAME, argv[1]), "--name");
	if (request_run(h, msg, &req) < 0) {
		snprintf(what, sizeof(what), "cannot delete radio '%s'", argv[1]);
		warn_refused(&req, what);
		return 1;
	}
	return 0;
}

/* Dump the radios of this namespace into req. */
static int radio_dump(const struct hwsim *h, struct request *req)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_GET_RADIO, NLM_F_DUMP);

	if (request_run(h, msg, req) < 0) {
		warn_refused(req, "cannot list the radios");
		return -1;
	}
	if (req->n_radios >= MAX_RADIOS)
		warn("more than %d radios: the list is cut", MAX_RADIOS);
	return 0;
}

static int cmd_list(const struct hwsim *h, int argc, char **argv)
{
	static struct request req;
	int i;

	(void)argv;
	if (argc)
		usage_error("list takes no arguments");
	if (radio_dump(h, &req) < 0)
		return 1;
	for (i = 0; i < req.n_radios; i++) {
		const struct radio *r = &req.radios[i];

		printf("%d %s %u%s%s\n", r->id, r->name, r->channels, r->alpha2[0] ? " " : "",
		       r->alpha2);
	}
	return 0;
}

static int cmd_del_all(const struct hwsim *h, int argc, char **argv)
{
	static struct request req;
	int i, status = 0;

	(void)argv;
	if (argc)
		usage_error("del-all takes no arguments");
	if (radio_dump(h, &req) < 0)
		return 1;
	for (i = 0; i < req.n_radios; i++)
		if (radio_del_by_id(h, req.radios[i].id) < 0)
			status = 1;
	return status;
}

static const struct command {
	const char *name;
	int (*run)(const struct hwsim *h, int argc, char **argv);
} commands[] = {
	{ "new", cmd_new },
	{ "del", cmd_del },
	{ "list", cmd_list },
	{ "del-all", cmd_del_all },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	usage_error("unknown command '%s'", name);
}

int main(int argc, char **argv)
{
	autoclose_hwsim struct hwsim h = { NULL, -1 };
	const struct command *cmd;

	if (argc < 2)
		usage_error("missing command");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage();
		return 0;
	}
	cmd = find_command(argv[1]);
	hwsim_open(&h);
	return cmd->run(&h, argc - 2, argv + 2);
}
