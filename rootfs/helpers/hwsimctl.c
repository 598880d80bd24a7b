/*
 * hwsimctl - create, list and delete mac80211_hwsim radios at run time.
 *
 * The guest boots with mac80211_hwsim.radios=0; every wireless test makes
 * the radios it needs and deletes them when it is done.  This tool speaks
 * the driver's generic netlink family "MAC80211_HWSIM" (the commands and
 * attributes of drivers/net/wireless/mac80211_hwsim.h, Linux 6.1) and, for
 * --netns and sweep, "nl80211", through libnl-genl-3:
 *
 *   hwsimctl new [--channels N] [--name NAME] [--no-vif] ...
 *                              create a radio, print its id on stdout
 *   hwsimctl new --netns --name NAME [...]
 *                              the same, in a new network namespace NAME
 *                              holding one managed interface NAME
 *   hwsimctl del ID | --name NAME
 *                              delete one radio
 *   hwsimctl list              print "ID NAME CHANNELS [ALPHA2]" per radio
 *   hwsimctl del-all           delete every radio of this network namespace
 *   hwsimctl sweep             delete every namespace of /run/netns (and
 *                              kill its processes), every radio, and put
 *                              back the world regulatory domain; print a
 *                              line per thing removed or changed
 *   hwsimctl inject IFACE HEX  send one 802.11 frame (HEX, from its frame
 *                              control field on, without FCS) as it is,
 *                              through monitor interface IFACE
 *   hwsimctl exec NS CMD [ARG...]
 *                              run CMD in network namespace NS, as
 *                              `ip netns exec` does (its own mount
 *                              namespace, with the namespace's /sys), but
 *                              from a static program (iproute2's ip is
 *                              dynamic); `nsexec NS CMD` is the same in a
 *                              smaller program, the one the wireless
 *                              library uses (rootfs/netns-exec.c)
 *
 * The driver answers HWSIM_CMD_NEW_RADIO with the new radio's id in the
 * error field of the netlink acknowledgement (a positive "error"), which
 * is why the acknowledgement is read by hand below instead of through
 * libnl's default handlers.  The kernel's extended-ack message (for
 * example "must have at least one channel") is printed with the error.
 *
 * A radio lives in the network namespace of its wiphy: GET, DEL and the
 * dump only see radios whose wiphy is in the namespace of the netlink
 * socket, so radios moved into a namespace are deleted through a socket
 * made inside it.
 *
 * new --netns replaces five processes (ip netns add, ip link set lo up,
 * hwsimctl new --no-vif, iw phy set netns, iw phy interface add), each of
 * which costs tens of milliseconds in the guest.  The radio is made in
 * our own (the initial) namespace and only then moved: hwsim gives a radio
 * the "netgroup" of the namespace it was created from, and only radios of
 * one netgroup hear each other.  Radios created in the initial namespace
 * also go back there when their namespace dies.
 *
 * cfg80211 silently falls back to the default "phyN" name when the name
 * asked for is taken; `new --name` checks the name it got and fails (and
 * removes the radio) rather than hand back a radio under another name.
 *
 * inject is how a test forges a frame (a deauthentication without
 * protection, say) now that hostapd 2.10's way, a "cooked" monitor
 * interface, is refused by newer kernels: the frame goes out through an
 * ordinary monitor interface behind a radiotap header of no fields, so
 * mac80211 transmits it untouched (no encryption, no sequence number of
 * its own) on the monitor's channel.
 *
 * Exit codes: 0 success, 1 the kernel refused, the radio was not found or
 * (sweep) something could not be removed, 2 usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#define DIE_PROG "hwsimctl"
#include "../die.h"
#include "../netns-exec.h"

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
#define WORLD_ALPHA2 "00"
/* How long sweep waits for killed processes, and for the regulatory core. */
#define KILL_WAIT_MS 1000
#define REG_WAIT_MS  1000
/* Created once this boot's regulatory.db was loaded (reload_regdb_once). */
#define REGDB_LOADED "/run/hwsimctl.regdb"

static void usage(void)
{
	printf("usage: %s COMMAND [ARGS]\n"
	       "\n"
	       "  new [OPTIONS]          create a radio, print its id\n"
	       "    --channels N         number of concurrent channels (default 1)\n"
	       "    --name NAME          wiphy name (default phyN)\n"
	       "    --no-vif             do not create the default wlanN interface\n"
	       "    --netns              put the radio in a new network namespace NAME\n"
	       "                         (lo up) with one managed interface NAME, down;\n"
	       "                         needs --name, implies --no-vif\n"
	       "    --alpha2 CC          regulatory hint of the driver (country CC)\n"
	       "    --custom-reg N       hwsim custom regulatory domain N\n"
	       "    --strict-reg         REGULATORY_STRICT_REG\n"
	       "    --p2p-device         add a P2P device interface type\n"
	       "    --chanctx            use channel contexts even with one channel\n"
	       "    --perm-addr MAC      permanent MAC address\n"
	       "  del ID | --name NAME   delete a radio\n"
	       "  list                   print ID NAME CHANNELS [ALPHA2] per radio\n"
	       "  del-all                delete every radio of this namespace\n"
	       "  inject IFACE HEX       send the 802.11 frame HEX through monitor\n"
	       "                         interface IFACE, untouched\n"
	       "  exec NS CMD [ARG...]   run CMD in network namespace NS (" NETNS_DIR "/NS),\n"
	       "                         as ip netns exec does; 127 if CMD is not found\n"
	       "  sweep                  kill the processes of every namespace in\n"
	       "                         " NETNS_DIR ", delete its radios and the\n"
	       "                         namespace, then every other radio; set the\n"
	       "                         regulatory domain back to " WORLD_ALPHA2 ".  One line\n"
	       "                         per thing done; none on a clean slate\n"
	       "  --help                 this text\n",
	       DIE_PROG);
}

/* A connected generic netlink socket and the family it talks to. */
struct genl {
	struct nl_sock *sock;
	int family;
	const char *name; /* of the family, for messages */
};

static void genl_close(struct genl *g)
{
	if (g->sock)
		nl_socket_free(g->sock);
	g->sock = NULL;
}

#define autoclose_genl __attribute__((cleanup(genl_close)))

static void fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

#define autoclose_fd __attribute__((cleanup(fd_close)))

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

/*
 * Connect g to the generic netlink family name.  The socket acts in the
 * network namespace it is made in, whatever namespace we are in later.
 * Family ids are global, the same in every namespace: a known one
 * (family >= 0) spares the controller lookup.
 */
static int genl_open(struct genl *g, const char *name, int family)
{
	int one = 1, err;

	g->name = name;
	g->family = family;
	g->sock = nl_socket_alloc();
	if (!g->sock)
		die("cannot allocate a netlink socket");
	err = genl_connect(g->sock);
	if (err < 0) {
		warn("cannot connect to generic netlink: %s", nl_geterror(err));
		return -1;
	}
	/* Ask for the kernel's error text; an old kernel ignoring it is fine. */
	(void)setsockopt(nl_socket_get_fd(g->sock), SOL_NETLINK, NETLINK_EXT_ACK, &one,
			 sizeof(one));
	if (family >= 0)
		return 0;
	g->family = genl_ctrl_resolve(g->sock, name);
	if (g->family < 0) {
		warn("generic netlink family %s not found%s: %s", name,
		     strcmp(name, HWSIM_FAMILY) ? "" : " (is mac80211_hwsim built in?)",
		     nl_geterror(g->family));
		return -1;
	}
	return 0;
}

/* One radio as the driver describes it. */
struct radio {
	int id;
	char name[64];
	unsigned int channels;
	char alpha2[3];
};

/* State of one request: its acknowledgement and what it returned. */
struct request {
	bool done;
	int error; /* errno of the ack: <0 error, >0 new radio id */
	char ext_msg[256];
	struct radio radios[MAX_RADIOS];
	int n_radios;
	char reg_alpha2[3]; /* nl80211 GET_REG: the global regulatory domain */
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

/* The nl80211 GET_REG reply: remember the global regulatory domain. */
static int on_reg(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL) < 0)
		return NL_SKIP;
	if (tb[NL80211_ATTR_REG_ALPHA2] && nla_len(tb[NL80211_ATTR_REG_ALPHA2]) >= 2)
		memcpy(req->reg_alpha2, nla_data(tb[NL80211_ATTR_REG_ALPHA2]), 2);
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

static struct nl_msg *request_new(const struct genl *g, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		die("cannot allocate a netlink message");
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, g->family, 0, flags, (uint8_t)cmd, 1))
		die("cannot build the netlink header");
	return msg;
}

/*
 * A send or receive failure is reported like a refusal (EIO, with libnl's
 * text as the message) rather than fatal: new --netns has things to undo.
 */
static int request_failed(struct request *req, const char *what, const struct genl *g, int err)
{
	req->done = true;
	req->error = -EIO;
	snprintf(req->ext_msg, sizeof(req->ext_msg), "cannot %s %s: %s", what, g->name,
		 nl_geterror(err));
	return req->error;
}

/*
 * Send msg and read replies until its acknowledgement (or the end of a
 * dump), handing each reply to valid (NULL: ignore them). Returns the
 * ack's error field: -errno, 0, or a positive radio id.
 */
static int request_run(const struct genl *g, struct nl_msg *msg, struct request *req,
		       nl_recvmsg_msg_cb_t valid)
{
	autofree_cb struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int err;

	if (!cb)
		die("cannot allocate netlink callbacks");
	memset(req, 0, sizeof(*req));
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, req);
	if (valid)
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid, req);

	err = nl_send_auto(g->sock, msg);
	if (err < 0)
		return request_failed(req, "send to", g, err);
	while (!req->done) {
		err = nl_recvmsgs(g->sock, cb);
		/* Our own handlers stop with req->done set; anything else
		 * is a receive error. */
		if (err < 0 && !req->done)
			return request_failed(req, "read the reply of", g, err);
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

static int radio_get(const struct genl *h, int id, struct radio *out)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_GET_RADIO, 0);
	struct request req;

	put_or_die(nla_put_u32(msg, HWSIM_ATTR_RADIO_ID, (uint32_t)id), "id");
	if (request_run(h, msg, &req, on_radio) < 0 || req.n_radios != 1)
		return -1;
	*out = req.radios[0];
	return 0;
}

static int radio_del_by_id(const struct genl *h, int id)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_DEL_RADIO, 0);
	struct request req;
	char what[64];

	put_or_die(nla_put_u32(msg, HWSIM_ATTR_RADIO_ID, (uint32_t)id), "id");
	if (request_run(h, msg, &req, NULL) < 0) {
		snprintf(what, sizeof(what), "cannot delete radio %d", id);
		warn_refused(&req, what);
		return -1;
	}
	return 0;
}

/* Dump the radios of the socket's namespace into req. */
static int radio_dump(const struct genl *h, struct request *req)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_GET_RADIO, NLM_F_DUMP);

	if (request_run(h, msg, req, on_radio) < 0) {
		warn_refused(req, "cannot list the radios");
		return -1;
	}
	if (req->n_radios >= MAX_RADIOS)
		warn("more than %d radios: the list is cut", MAX_RADIOS);
	return 0;
}

/*
 * Send the NEW_RADIO request msg and check the name the radio got.
 * Returns the radio's id, or -1 (and no radio is left).
 */
static int radio_create(const struct genl *h, struct nl_msg *msg, const char *name)
{
	struct request req;
	struct radio got;
	int id;

	id = request_run(h, msg, &req, on_radio);
	if (id < 0) {
		warn_refused(&req, "cannot create a radio");
		return -1;
	}
	if (!name)
		return id;
	if (radio_get(h, id, &got) < 0) {
		warn("radio %d vanished right after its creation", id);
		return -1;
	}
	if (strcmp(got.name, name)) {
		warn("the name '%s' is taken: the kernel called the "
		     "new radio '%s'; removing it",
		     name, got.name);
		radio_del_by_id(h, id);
		return -1;
	}
	return id;
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

/*
 * The kernel's dev_valid_name(): with --netns, NAME names the interface
 * as well as the wiphy and the namespace file.
 */
static bool ifname_ok(const char *s)
{
	if (!s[0] || strlen(s) >= IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || isspace((unsigned char)*s))
			return false;
	return true;
}

/* Milliseconds from now to deadline (CLOCK_MONOTONIC), at least 0. */
static int ms_until(const struct timespec *deadline)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000LL +
	     (deadline->tv_nsec - now.tv_nsec + 999999) / 1000000;
	return ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
}

static struct timespec deadline_in(int ms)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* Wait until fd is readable or the deadline passes; true if readable. */
static bool readable_by(int fd, const struct timespec *deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, ms_until(deadline));
	while (r < 0 && errno == EINTR);
	return r > 0;
}

/* ---- Network namespaces, as `ip netns` keeps them ---- */

static void netns_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, NETNS_DIR "/%s", name);
}

/*
 * Make NETNS_DIR a shared mount point, as `ip netns add` does: the mounts
 * under it then propagate to the mount namespaces `ip netns exec` makes
 * (slaves of ours), and so does their unmount, which lets a deleted
 * namespace die instead of living on in a copy of the mount.
 */
static int netns_dir(void)
{
	bool bound = false;

	if (mkdir(NETNS_DIR, 0755) < 0 && errno != EEXIST) {
		warn_sys("cannot create %s", NETNS_DIR);
		return -1;
	}
	while (mount("", NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) < 0) {
		/* EINVAL: not a mount point yet; bind it onto itself. */
		if (errno != EINVAL || bound) {
			warn_sys("cannot make %s a shared mount", NETNS_DIR);
			return -1;
		}
		if (mount(NETNS_DIR, NETNS_DIR, "none", MS_BIND | MS_REC, NULL) < 0) {
			warn_sys("cannot bind %s onto itself", NETNS_DIR);
			return -1;
		}
		bound = true;
	}
	return 0;
}

/* Back to the namespace we started in: carrying on elsewhere would do the
 * rest in the wrong namespace. */
static void netns_return(int orig)
{
	if (setns(orig, CLONE_NEWNET) < 0)
		die_sys("cannot return to the original network namespace");
}

/*
 * Namespace NAME as `ip netns add` makes it: a new, empty file in
 * NETNS_DIR (O_EXCL: an existing namespace is an error, never reused) with
 * a new network namespace bind-mounted on it.  We come back to orig.
 */
static int netns_add(const char *name, int orig)
{
	char path[PATH_MAX];
	int fd;

	if (netns_dir() < 0)
		return -1;
	netns_path(path, sizeof(path), name);
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0) {
		if (errno == EEXIST)
			warn("namespace %s exists already (%s)", name, path);
		else
			warn_sys("cannot create %s", path);
		return -1;
	}
	close(fd);
	if (unshare(CLONE_NEWNET) < 0) {
		warn_sys("cannot create a network namespace");
		unlink(path);
		return -1;
	}
	if (mount("/proc/self/ns/net", path, "none", MS_BIND, NULL) < 0) {
		warn_sys("cannot bind the new namespace onto %s", path);
		netns_return(orig);
		unlink(path);
		return -1;
	}
	netns_return(orig);
	return 0;
}

/* As `ip netns del`: the namespace dies with its last process and fd. */
static int netns_del(const char *name)
{
	char path[PATH_MAX];

	netns_path(path, sizeof(path), name);
	/* EINVAL: nothing mounted there (a leftover file): just remove it. */
	if (umount2(path, MNT_DETACH) < 0 && errno != EINVAL) {
		warn_sys("cannot unmount %s", path);
		return -1;
	}
	if (unlink(path) < 0) {
		warn_sys("cannot remove %s", path);
		return -1;
	}
	return 0;
}

/* Connect g to family name through a socket made in the namespace nsfd. */
static int genl_open_in(struct genl *g, const char *name, int family, int nsfd, int orig,
			const char *ns)
{
	int r;

	if (setns(nsfd, CLONE_NEWNET) < 0) {
		warn_sys("cannot enter namespace %s", ns);
		return -1;
	}
	r = genl_open(g, name, family);
	netns_return(orig);
	return r;
}

/* Bring ifname up, as `ip link set IFNAME up`, in our current namespace. */
static int link_up(const char *ifname)
{
	autoclose_fd int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		warn_sys("cannot read the flags of %s", ifname);
		return -1;
	}
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0) {
		warn_sys("cannot bring %s up", ifname);
		return -1;
	}
	return 0;
}

/* ---- nl80211 ---- */

/*
 * The wiphy index of the radio NAME of our namespace: nl80211 knows a
 * wiphy by index, hwsim only by its own radio id.  The ieee80211 class
 * is per namespace in sysfs, and /sys was mounted in ours (`ip netns
 * exec` mounts its own).
 */
static int phy_index(const char *name)
{
	autoclose_fd int fd = -1;
	char path[128], buf[16];
	char *end;
	ssize_t n;
	long v;

	snprintf(path, sizeof(path), "/sys/class/ieee80211/%s/index", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warn_sys("cannot open %s", path);
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		warn_sys("cannot read %s", path);
		return -1;
	}
	buf[n] = '\0';
	v = strtol(buf, &end, 10);
	if (end == buf || (*end && *end != '\n') || v < 0 || v > INT_MAX) {
		warn("%s: not a wiphy index: '%s'", path, buf);
		return -1;
	}
	return (int)v;
}

/* As `iw phy NAME set netns name NS`. */
static int wiphy_set_netns(const struct genl *nl, int phy, int nsfd, const char *name)
{
	autofree_msg struct nl_msg *msg = request_new(nl, NL80211_CMD_SET_WIPHY_NETNS, 0);
	struct request req;
	char what[128];

	put_or_die(nla_put_u32(msg, NL80211_ATTR_WIPHY, (uint32_t)phy), "the wiphy");
	put_or_die(nla_put_u32(msg, NL80211_ATTR_NETNS_FD, (uint32_t)nsfd), "the namespace");
	if (request_run(nl, msg, &req, NULL) < 0) {
		snprintf(what, sizeof(what), "cannot move wiphy %d (%s) into namespace %s", phy,
			 name, name);
		warn_refused(&req, what);
		return -1;
	}
	return 0;
}

/* As `iw phy NAME interface add NAME type managed`, in the socket's namespace. */
static int interface_add(const struct genl *nl, int phy, const char *name)
{
	autofree_msg struct nl_msg *msg = request_new(nl, NL80211_CMD_NEW_INTERFACE, 0);
	struct request req;
	char what[128];

	put_or_die(nla_put_u32(msg, NL80211_ATTR_WIPHY, (uint32_t)phy), "the wiphy");
	put_or_die(nla_put_string(msg, NL80211_ATTR_IFNAME, name), "the interface name");
	put_or_die(nla_put_u32(msg, NL80211_ATTR_IFTYPE, NL80211_IFTYPE_STATION), "the type");
	if (request_run(nl, msg, &req, NULL) < 0) {
		snprintf(what, sizeof(what), "cannot add interface %s to wiphy %d in namespace %s",
			 name, phy, name);
		warn_refused(&req, what);
		return -1;
	}
	return 0;
}

/* The global regulatory domain, as the first line of `iw reg get`. */
static int reg_get(const struct genl *nl, char alpha2[3])
{
	autofree_msg struct nl_msg *msg = request_new(nl, NL80211_CMD_GET_REG, 0);
	struct request req;

	if (request_run(nl, msg, &req, on_reg) < 0) {
		warn_refused(&req, "cannot read the regulatory domain");
		return -1;
	}
	if (!req.reg_alpha2[0]) {
		warn("the kernel did not say its regulatory domain");
		return -1;
	}
	memcpy(alpha2, req.reg_alpha2, 3);
	return 0;
}

/* As `iw reg set ALPHA2`: a user hint, applied later by the regulatory core. */
static int reg_request(const struct genl *nl, const char *alpha2)
{
	autofree_msg struct nl_msg *msg = request_new(nl, NL80211_CMD_REQ_SET_REG, 0);
	struct request req;
	char what[64];

	put_or_die(nla_put_string(msg, NL80211_ATTR_REG_ALPHA2, alpha2), "the country");
	if (request_run(nl, msg, &req, NULL) < 0) {
		snprintf(what, sizeof(what), "cannot ask for regulatory domain %s", alpha2);
		warn_refused(&req, what);
		return -1;
	}
	return 0;
}

/* ---- Commands ---- */

/*
 * new --netns: namespace NAME with lo up; the radio made here, in the
 * original namespace (hwsim's netgroups: see the top of the file), then
 * its wiphy moved into NAME and a managed interface NAME added there (left
 * down).  A failure undoes what was done: no radio, no namespace.
 */
static int new_in_netns(const struct genl *h, struct nl_msg *msg, const char *name)
{
	autoclose_genl struct genl here = { NULL, -1, NULL };
	autoclose_genl struct genl there = { NULL, -1, NULL };
	autoclose_genl struct genl hw_there = { NULL, -1, NULL };
	autoclose_fd int orig = -1, nsfd = -1;
	char path[PATH_MAX];
	bool moved = false, ok;
	int id = -1, phy;

	orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (orig < 0) {
		warn_sys("cannot open /proc/self/ns/net");
		return 1;
	}
	if (netns_add(name, orig) < 0)
		return 1;
	netns_path(path, sizeof(path), name);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0) {
		warn_sys("cannot open %s", path);
		goto undo;
	}
	/* Inside: lo, and the socket that will add the interface there. */
	if (setns(nsfd, CLONE_NEWNET) < 0) {
		warn_sys("cannot enter namespace %s", name);
		goto undo;
	}
	ok = !link_up("lo") && !genl_open(&there, NL80211_GENL_NAME, -1);
	netns_return(orig);
	if (!ok)
		goto undo;

	id = radio_create(h, msg, name);
	if (id < 0)
		goto undo;
	phy = phy_index(name);
	if (phy < 0 || genl_open(&here, NL80211_GENL_NAME, there.family) < 0 ||
	    wiphy_set_netns(&here, phy, nsfd, name) < 0)
		goto undo;
	moved = true;
	if (interface_add(&there, phy, name) < 0)
		goto undo;
	printf("%d\n", id);
	return 0;

undo:
	/* A moved radio is only visible (and deletable) from inside NAME;
	 * left there, it would come back here when NAME dies, later. */
	if (id >= 0) {
		if (!moved)
			radio_del_by_id(h, id);
		else if (!genl_open_in(&hw_there, HWSIM_FAMILY, h->family, nsfd, orig, name))
			radio_del_by_id(&hw_there, id);
	}
	netns_del(name);
	return 1;
}

static int cmd_new(const struct genl *h, int argc, char **argv)
{
	autofree_msg struct nl_msg *msg = request_new(h, HWSIM_CMD_NEW_RADIO, 0);
	const char *name = NULL;
	bool netns = false, no_vif = false;
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
			no_vif = true;
		} else if (!strcmp(a, "--netns")) {
			netns = true;
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
	if (netns && !name)
		usage_error("--netns needs --name");
	if (netns && !ifname_ok(name))
		usage_error("--netns: '%s' cannot name an interface (1 to %d characters, "
			    "no '/', ':' or space)",
			    name, IFNAMSIZ - 1);
	if (no_vif || netns)
		put_or_die(nla_put_flag(msg, HWSIM_ATTR_NO_VIF), "--no-vif");

	if (netns)
		return new_in_netns(h, msg, name);
	id = radio_create(h, msg, name);
	if (id < 0)
		return 1;
	printf("%d\n", id);
	return 0;
}

static int cmd_del(const struct genl *h, int argc, char **argv)
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
	if (request_run(h, msg, &req, NULL) < 0) {
		snprintf(what, sizeof(what), "cannot delete radio '%s'", argv[1]);
		warn_refused(&req, what);
		return 1;
	}
	return 0;
}

static int cmd_list(const struct genl *h, int argc, char **argv)
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

static int cmd_del_all(const struct genl *h, int argc, char **argv)
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

/* ---- sweep ---- */

/* The process pid is in the namespace ns.  A zombie no longer is: a task
 * drops its namespaces before it becomes one, and its ns links go. */
static bool in_netns(pid_t pid, const struct stat *ns)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	return !stat(path, &st) && st.st_dev == ns->st_dev && st.st_ino == ns->st_ino;
}

/* A process sweep killed, watched through a pidfd: it is not our child. */
struct victim {
	pid_t pid;
	int pidfd; /* -1 once it has exited */
	char comm[17];
};

struct victims {
	struct victim *v;
	int n, cap;
};

static bool victim_known(const struct victims *vs, pid_t pid)
{
	int i;

	for (i = 0; i < vs->n; i++)
		if (vs->v[i].pid == pid)
			return true;
	return false;
}

static void read_comm(pid_t pid, char *buf, size_t size)
{
	char path[64];
	autoclose_fd int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, size - 1);
	if (n <= 0) {
		snprintf(buf, size, "?");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * SIGKILL each process of namespace ns (named name) not killed yet.
 * Returns how many it killed, or -1 if /proc cannot be read.
 */
static int kill_round(const struct stat *ns, const char *name, struct victims *vs, int *status)
{
	DIR *proc = opendir("/proc");
	struct dirent *de;
	int killed = 0;

	if (!proc) {
		warn_sys("cannot read /proc");
		return -1;
	}
	while ((de = readdir(proc))) {
		struct victim *v;
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		int fd;

		if (*end || pid <= 0 || pid == getpid() || !in_netns((pid_t)pid, ns) ||
		    victim_known(vs, (pid_t)pid))
			continue;
		/* The pidfd pins the process: look again, so that a pid
		 * reused meanwhile is not killed by mistake. */
		fd = pidfd_open((pid_t)pid, 0);
		if (fd < 0 || !in_netns((pid_t)pid, ns)) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (vs->n == vs->cap) {
			vs->cap = vs->cap ? 2 * vs->cap : 16;
			vs->v = realloc(vs->v, (size_t)vs->cap * sizeof(*vs->v));
			if (!vs->v)
				die("out of memory");
		}
		v = &vs->v[vs->n];
		v->pid = (pid_t)pid;
		v->pidfd = fd;
		read_comm(v->pid, v->comm, sizeof(v->comm));
		if (pidfd_send_signal(fd, SIGKILL, NULL, 0) < 0) {
			warn_sys("cannot kill pid %d (%s) in namespace %s", v->pid, v->comm, name);
			close(fd);
			*status = -1;
			continue;
		}
		printf("killed pid %d (%s) in namespace %s\n", v->pid, v->comm, name);
		vs->n++;
		killed++;
	}
	closedir(proc);
	return killed;
}

/*
 * Kill every process of namespace ns and wait (up to KILL_WAIT_MS) for
 * them to exit.  Again until a look finds no one new: a process may have
 * forked while we killed its parent.
 */
static int sweep_kill(const struct stat *ns, const char *name)
{
	struct timespec deadline = deadline_in(KILL_WAIT_MS);
	struct victims vs = { NULL, 0, 0 };
	int i, first, killed, status = 0;

	do {
		first = vs.n;
		killed = kill_round(ns, name, &vs, &status);
		for (i = first; i < vs.n; i++) {
			if (readable_by(vs.v[i].pidfd, &deadline)) {
				close(vs.v[i].pidfd);
				vs.v[i].pidfd = -1;
			}
		}
	} while (killed > 0 && ms_until(&deadline) > 0);
	if (killed < 0)
		status = -1;
	for (i = 0; i < vs.n; i++) {
		if (vs.v[i].pidfd < 0)
			continue;
		warn("pid %d (%s) in namespace %s is still there %d ms after SIGKILL", vs.v[i].pid,
		     vs.v[i].comm, name, KILL_WAIT_MS);
		close(vs.v[i].pidfd);
		status = -1;
	}
	free(vs.v);
	return status;
}

/* Delete every radio the namespace of h shows (ns names it, NULL for
 * ours), one line each on stdout. */
static int sweep_radios(const struct genl *h, const char *ns)
{
	static struct request req;
	int i, status = 0;

	do {
		if (radio_dump(h, &req) < 0)
			return -1;
		for (i = 0; i < req.n_radios; i++) {
			const struct radio *r = &req.radios[i];

			if (radio_del_by_id(h, r->id) < 0)
				status = -1;
			else if (ns)
				printf("deleted radio %d (%s) in namespace %s\n", r->id, r->name,
				       ns);
			else
				printf("deleted radio %d (%s)\n", r->id, r->name);
		}
	} while (!status && req.n_radios >= MAX_RADIOS);
	return status;
}

/*
 * Empty the namespace file name of NETNS_DIR and delete it.  Its radios
 * are deleted from inside: hwsim shows a namespace only its own radios,
 * and a radio left in it would come back here when it dies, some time
 * later (the kernel cleans up namespaces in a work queue).
 */
static int sweep_netns(const struct genl *h, int orig, const struct stat *self, const char *name)
{
	autoclose_genl struct genl there = { NULL, -1, NULL };
	autoclose_fd int fd = -1;
	char path[PATH_MAX];
	struct stat ns;
	int status = 0;

	netns_path(path, sizeof(path), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &ns) < 0) {
		warn_sys("cannot open %s", path);
		return -1;
	}
	/* (`ip netns attach NAME 1` names the initial namespace: its
	 * processes include init.) */
	if (ns.st_dev == self->st_dev && ns.st_ino == self->st_ino) {
		warn("namespace %s is our own: not swept", name);
		return -1;
	}
	if (sweep_kill(&ns, name) < 0)
		status = -1;
	if (setns(fd, CLONE_NEWNET) == 0) {
		int r = genl_open(&there, HWSIM_FAMILY, h->family);

		netns_return(orig);
		/* Radios left: keep the namespace, to be swept again. */
		if (r < 0 || sweep_radios(&there, name) < 0)
			return -1;
	} else if (errno != EINVAL) {
		/* (EINVAL: a leftover file with no namespace on it.) */
		warn_sys("cannot enter namespace %s", name);
		return -1;
	}
	if (netns_del(name) < 0)
		return -1;
	printf("deleted namespace %s\n", name);
	return status;
}

/*
 * Have cfg80211 read regulatory.db again, once per boot (REGDB_LOADED
 * marks it done).  At boot the kernel asks for the file from a late
 * initcall, without waiting: if that runs before the root is mounted (it
 * does under basic time travel) the load fails and cfg80211 keeps the
 * failure for good, so `iw reg set` and 802.11d hints are ignored from
 * then on.  RELOAD_REGDB reads the file synchronously and reapplies the
 * current domain.
 */
static int reload_regdb_once(const struct genl *nl)
{
	autofree_msg struct nl_msg *msg = NULL;
	struct request req;
	int fd;

	if (!access(REGDB_LOADED, F_OK))
		return 0;
	msg = request_new(nl, NL80211_CMD_RELOAD_REGDB, 0);
	if (request_run(nl, msg, &req, NULL) < 0) {
		warn_refused(&req, "cannot load the regulatory database (regulatory.db)");
		return -1;
	}
	fd = open(REGDB_LOADED, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * Put the world regulatory domain back, as `iw reg set 00`.  The kernel
 * applies it later, from its regulatory work (the first time after
 * loading regulatory.db): we wait for the change on nl80211's
 * "regulatory" multicast group, joined before asking, up to REG_WAIT_MS.
 */
static int sweep_reg(void)
{
	autoclose_genl struct genl nl = { NULL, -1, NULL }, ev = { NULL, -1, NULL };
	struct timespec deadline;
	char was[3], now[3];
	int grp;

	if (genl_open(&nl, NL80211_GENL_NAME, -1) < 0 || reload_regdb_once(&nl) < 0 ||
	    reg_get(&nl, was) < 0)
		return -1;
	if (!strcmp(was, WORLD_ALPHA2))
		return 0;
	if (genl_open(&ev, NL80211_GENL_NAME, nl.family) < 0)
		return -1;
	grp = genl_ctrl_resolve_grp(nl.sock, NL80211_GENL_NAME, NL80211_MULTICAST_GROUP_REG);
	if (grp < 0 || nl_socket_add_membership(ev.sock, grp) < 0) {
		warn("cannot listen to the regulatory events of %s", NL80211_GENL_NAME);
		return -1;
	}
	nl_socket_disable_seq_check(ev.sock);
	if (reg_request(&nl, WORLD_ALPHA2) < 0)
		return -1;
	deadline = deadline_in(REG_WAIT_MS);
	for (;;) {
		if (reg_get(&nl, now) < 0)
			return -1;
		if (!strcmp(now, WORLD_ALPHA2))
			break;
		if (!readable_by(nl_socket_get_fd(ev.sock), &deadline)) {
			warn("the regulatory domain is still %s %d ms after asking for %s", now,
			     REG_WAIT_MS, WORLD_ALPHA2);
			return -1;
		}
		/* Whatever the events say, GET_REG above is the judge. */
		nl_recvmsgs_default(ev.sock);
	}
	printf("regulatory domain %s, set back to %s\n", was, WORLD_ALPHA2);
	return 0;
}

static int cmd_sweep(const struct genl *h, int argc, char **argv)
{
	autoclose_fd int orig = -1;
	struct stat self, init;
	struct dirent *de;
	int status = 0;
	DIR *dir;

	(void)argv;
	if (argc)
		usage_error("sweep takes no arguments");
	orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (orig < 0 || fstat(orig, &self) < 0) {
		warn_sys("cannot open /proc/self/ns/net");
		return 1;
	}
	/* From inside a namespace, "every other radio" would be the wrong
	 * ones, and the namespace could not be deleted. */
	if (!stat("/proc/1/ns/net", &init) &&
	    (init.st_dev != self.st_dev || init.st_ino != self.st_ino)) {
		warn(
		    "sweep runs in the initial network namespace (that of pid 1), not in this one");
		return 1;
	}
	dir = opendir(NETNS_DIR);
	if (!dir && errno != ENOENT) {
		warn_sys("cannot read %s", NETNS_DIR);
		status = 1;
	}
	while (dir && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (sweep_netns(h, orig, &self, de->d_name) < 0)
			status = 1;
	}
	if (dir)
		closedir(dir);
	if (sweep_radios(h, NULL) < 0)
		status = 1;
	if (sweep_reg() < 0)
		status = 1;
	return status;
}

/* One hex digit's value, or -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int cmd_inject(const struct genl *h, int argc, char **argv)
{
	/* radiotap: version 0, pad, length 8, no fields present */
	unsigned char frame[2048] = { 0, 0, 8, 0, 0, 0, 0, 0 };
	size_t len = 8, hexlen;
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	int fd;
	ssize_t n;

	(void)h;
	if (argc != 2)
		usage_error("usage: inject IFACE HEX");
	hexlen = strlen(argv[1]);
	if (hexlen < 2 * 10 || hexlen % 2 || hexlen / 2 > sizeof(frame) - len)
		usage_error("inject: want an 802.11 frame of 10 to %zu bytes in hex, got %zu "
			    "digits",
			    sizeof(frame) - len, hexlen);
	for (size_t i = 0; i < hexlen; i += 2) {
		int hi = hex_digit(argv[1][i]), lo = hex_digit(argv[1][i + 1]);

		if (hi < 0 || lo < 0)
			usage_error("inject: not hex at digit %zu: '%.2s'", i + 1, argv[1] + i);
		frame[len++] = (unsigned char)(hi << 4 | lo);
	}
	ll.sll_ifindex = (int)if_nametoindex(argv[0]);
	if (!ll.sll_ifindex) {
		warn("inject: no interface '%s'", argv[0]);
		return 1;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0 || bind(fd, (struct sockaddr *)&ll, sizeof(ll)) < 0) {
		warn_sys("inject: cannot open %s", argv[0]);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	n = send(fd, frame, len, 0);
	if (n != (ssize_t)len) {
		if (n < 0)
			warn_sys("inject: cannot send on %s", argv[0]);
		else
			warn("inject: cannot send on %s: short write", argv[0]);
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static const struct command {
	const char *name;
	int (*run)(const struct genl *h, int argc, char **argv);
} commands[] = {
	{ "new", cmd_new },	    { "del", cmd_del },	    { "list", cmd_list },
	{ "del-all", cmd_del_all }, { "sweep", cmd_sweep }, { "inject", cmd_inject },
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
	autoclose_genl struct genl h = { NULL, -1, NULL };
	const struct command *cmd;

	if (argc < 2)
		usage_error("missing command");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage();
		return 0;
	}
	/* A process in a namespace, a frame on a monitor interface: no netlink. */
	if (!strcmp(argv[1], "exec")) {
		int rc = netns_exec(DIE_PROG, argc - 2, argv + 2);

		if (rc == 2)
			fprintf(stderr, "Try '%s --help'.\n", DIE_PROG);
		return rc;
	}
	cmd = find_command(argv[1]);
	if (cmd->run == cmd_inject)
		return cmd_inject(NULL, argc - 2, argv + 2);
	if (genl_open(&h, HWSIM_FAMILY, -1) < 0)
		return 1;
	return cmd->run(&h, argc - 2, argv + 2);
}
