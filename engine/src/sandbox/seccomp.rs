//! The seccomp filters bwrap installs just before it runs a bot: the system calls no
//! bot needs (debugging other processes, mounting, kernel keyrings, BPF, performance
//! counters, new namespaces, loading modules, ...) fail with `EPERM`; `clone3` and
//! io_uring fail with `ENOSYS`, which makes the C library and runtimes fall back to
//! `clone` and plain system calls; and every x32 system call fails with `ENOSYS`.
//!
//! The rules are compiled by `seccompiler` (rust-vmm), which also refuses any other
//! architecture's calling convention (a 32-bit `int 0x80` is killed). It cannot test
//! a range of numbers, so the x32 guard (syscall numbers with bit 30 set, which share
//! x86-64's audit architecture) is a filter of four instructions of our own.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// Namespace flags of `clone`: a bot may make threads and processes, not namespaces.
const NAMESPACE_FLAGS: [u64; 8] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    0x80, // CLONE_NEWTIME
];

/// System calls that fail with `EPERM`.
fn denied() -> Vec<i64> {
    vec![
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_kcmp,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_mount_setattr,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_syslog,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_vhangup,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        #[cfg(target_arch = "x86_64")]
        libc::SYS_iopl,
        #[cfg(target_arch = "x86_64")]
        libc::SYS_ioperm,
    ]
}

/// System calls that fail with `ENOSYS`, so that callers fall back to older ones.
fn missing() -> Vec<i64> {
    vec![
        libc::SYS_clone3,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
    ]
}

fn target() -> Result<seccompiler::TargetArch, String> {
    std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("no seccomp filter for {}: {e:?}", std::env::consts::ARCH))
}

fn compile(rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32) -> Result<BpfProgram, String> {
    SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        target()?,
    )
    .and_then(TryInto::try_into)
    .map_err(|e| format!("the seccomp filter does not compile: {e}"))
}

/// The x32 guard: `nr & 0x40000000` fails with `ENOSYS`, anything else goes on to the
/// other filters.
#[cfg(target_arch = "x86_64")]
fn x32_guard() -> BpfProgram {
    use seccompiler::sock_filter;
    const LD_W_ABS: u16 = 0x20;
    const JMP_JSET_K: u16 = 0x45;
    const RET_K: u16 = 0x06;
    const NR_OFFSET: u32 = 0; // offsetof(struct seccomp_data, nr)
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    vec![
        sock_filter {
            code: LD_W_ABS,
            jt: 0,
            jf: 0,
            k: NR_OFFSET,
        },
        sock_filter {
            code: JMP_JSET_K,
            jt: 0,
            jf: 1,
            k: X32_SYSCALL_BIT,
        },
        sock_filter {
            code: RET_K,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
        },
        sock_filter {
            code: RET_K,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_ALLOW,
        },
    ]
}

/// The filters, as the bytes bwrap reads from `--add-seccomp-fd`.
pub fn programs() -> Result<Vec<Vec<u8>>, String> {
    let mut eperm: BTreeMap<i64, Vec<SeccompRule>> =
        denied().into_iter().map(|nr| (nr, Vec::new())).collect();
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| {
            let cond = SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )
            .map_err(|e| e.to_string())?;
            SeccompRule::new(vec![cond]).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, String>>()?;
    eperm.insert(libc::SYS_clone, clone_rules);
    let enosys = missing().into_iter().map(|nr| (nr, Vec::new())).collect();
    #[allow(unused_mut)]
    let mut all = vec![compile(eperm, libc::EPERM)?, compile(enosys, libc::ENOSYS)?];
    #[cfg(target_arch = "x86_64")]
    all.push(x32_guard());
    Ok(all.iter().map(to_bytes).collect())
}

fn to_bytes(program: &BpfProgram) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for f in program {
        out.extend_from_slice(&f.code.to_ne_bytes());
        out.push(f.jt);
        out.push(f.jf);
        out.extend_from_slice(&f.k.to_ne_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_filters_compile_here() {
        let programs = super::programs().unwrap();
        assert!(programs.len() >= 2);
        assert!(programs.iter().all(|p| !p.is_empty() && p.len() % 8 == 0));
    }
}
